import { describe, expect, it } from 'vitest';
import { DOT_LIMIT, renderTimelineSvg } from '../../../src/report/timeline.ts';
import { attempt, fault, history, op, T0 } from '../measure/fixtures.ts';
import { checkXml } from './xml-check.ts';

describe('renderTimelineSvg', () => {
  const h = history({
    endMs: T0 + 1100,
    faults: [fault('a', 600, 850), { ...fault('b', 600, undefined), hits: 7 } as never],
    ops: [
      op('1', 100, 110),
      op('2', 110, 120, 'fail'),
      op('3', 700, 800, 'info', { attempts: 2, failedAttempts: 2 }),
      op('4', 1090, 1099),
    ],
    attempts: [
      attempt('3', 1, 700, 740, false, { errorCode: 'DEPENDENCY.UNAVAILABLE' }),
      attempt('3', 2, 760, 800, false, { errorCode: 'DEPENDENCY.TIMEOUT' }),
    ],
  });
  const recovery = [
    {
      fault: 'a',
      kind: 'http-5xx',
      seam: 'dependency',
      onAtMs: 600,
      offAtMs: 850,
      outageOffAtMs: 850,
      recoveryMs: 150,
      firstSuccessMs: 100,
      recovered: true,
      status: 'recovered' as const,
    },
  ];
  // The workload started 100 ms after the run: x = 0 there.
  const svg = renderTimelineSvg({
    history: h,
    recovery,
    breaker: [{ key: 'pay', openAtMs: 650, closeAtMs: null }],
    offsetMs: 100,
  });
  const xOf = (cls: string) =>
    [...svg.matchAll(new RegExp(`class="${cls}"[^>]*?x="([\\d.]+)"`, 'g'))].map((m) => Number(m[1]));

  it('is well-formed SVG that scales with the page', () => {
    expect(checkXml(svg)).toEqual([]);
    expect(svg).toMatch(/<svg [^>]*viewBox="0 0 640 \d+" width="100%"/);
    expect(svg).not.toMatch(/<svg [^>]*height="/);
  });

  it('draws every op as a dot coloured by outcome, ringed and titled with its attempts when retried', () => {
    expect(svg.match(/<circle class="op op-ok/g)).toHaveLength(2);
    expect(svg.match(/<circle class="op op-fail/g)).toHaveLength(1);
    expect(svg).toContain('class="op op-info retried"');
    expect(svg).toContain('#1 ✗ DEPENDENCY.UNAVAILABLE 40 ms, #2 ✗ DEPENDENCY.TIMEOUT 40 ms');
    expect(svg).toContain('started at 600 ms');
  });

  it('puts a tick per attempt, red when it failed', () => {
    expect(svg.match(/class="attempt attempt-failed"/g)).toHaveLength(2);
  });

  it('shades each fault window from the workload start, to the end when never removed, with its hits', () => {
    // x: 80 + t / 1000 ms * 548 (the plot spans 1000 ms of workload over 548 units).
    const rects = [...svg.matchAll(/<rect class="fault" x="([\d.]+)" y="[\d.]+" width="([\d.]+)"/g)];
    expect(rects.map((m) => [Number(m[1]), Number(m[2])])).toEqual([
      [354, 137],
      [354, 274],
    ]);
    expect(svg).toContain('#2 hits: 7');
    expect(svg).toContain('#1 a (http-5xx): 500 ms → 750 ms');
    expect(svg).toContain('#2 b (http-5xx), hits: 7: 500 ms → never removed');
  });

  it('marks where a window recovered and when the breaker was open', () => {
    // Recovered at 850 + 150 = 1000 ms after the run start, 900 ms into the workload.
    expect(svg).toMatch(/class="recovered" x1="573.2"/);
    expect(svg).toContain('✓ 150 ms');
    expect(xOf('breaker-open')).toEqual([381.4]); // 550 ms into the workload
    expect(svg).toContain('breaker pay open 550 ms → still open');
  });
});

describe('renderTimelineSvg, a long run', () => {
  // 40,000 ops over 100 s: mostly ok, every 97th failing after two failed attempts, every 13th retried once.
  const count = 40_000;
  const ops = Array.from({ length: count }, (_, i) => {
    const start = i * 2.5;
    const failed = i % 97 === 0;
    const retried = !failed && i % 13 === 0;
    return op(`${i}`, start, start + 5 + (i % 50), failed ? 'fail' : 'ok', {
      attempts: failed || retried ? 2 : 1,
      failedAttempts: failed ? 2 : retried ? 1 : 0,
    });
  });
  const attempts = ops.flatMap((o) =>
    Array.from({ length: o.attempts }, (_, k) =>
      attempt(o.opId, k + 1, o.startMs, o.endMs, k + 1 > o.failedAttempts, { errorCode: 'DEPENDENCY.TIMEOUT' }),
    ),
  );
  const svg = renderTimelineSvg({
    history: history({ endMs: T0 + 100_200, ops, attempts }),
    recovery: [],
    offsetMs: 0,
  });
  const sum = (re: RegExp) => [...svg.matchAll(re)].reduce((total, m) => total + Number(m[1]), 0);

  it('counts ops in cells instead of a dot each, and keeps every op, outcome and retry in the counts', () => {
    expect(count).toBeGreaterThan(DOT_LIMIT);
    expect(svg).not.toContain('<circle class="op');
    expect(sum(/class="op-cell op-cell-ok" data-ops="(\d+)"/g)).toBe(count - Math.ceil(count / 97));
    expect(sum(/class="op-cell op-cell-fail" data-ops="(\d+)"/g)).toBe(Math.ceil(count / 97));
    expect(sum(/op\(s\) ok, (\d+) retried/g)).toBe(ops.filter((o) => o.outcome === 'ok' && o.attempts > 1).length);
    expect(svg).toContain(`${count} ops, ${attempts.length} attempts: counted per square`);
  });

  it('counts attempts per column, red where any failed', () => {
    expect(svg).not.toContain('class="attempt attempt-');
    expect(sum(/data-ok="(\d+)"/g)).toBe(attempts.filter((a) => a.ok).length);
    expect(sum(/data-failed="(\d+)"/g)).toBe(attempts.filter((a) => !a.ok).length);
    expect(svg).toContain('class="attempt-column attempt-column-failed"');
  });

  it('stays small and well-formed: under 1 MB for 40,000 ops (a dot each made about 9 MB)', () => {
    expect(checkXml(svg)).toEqual([]);
    expect(svg.length).toBeLessThan(1_000_000);
  });
});
