import { describe, expect, it } from 'vitest';
import type { Effect } from '../../../src/core/ledger.ts';
import { renderTrace, traceEvents } from '../../../src/report/trace.ts';
import { EVIL, sampleHistories, sampleRun } from './fixtures.ts';

describe('renderTrace', () => {
  const histories = sampleHistories();
  const text = renderTrace(histories);
  const lines = text.trimEnd().split('\n');
  const events = lines.map((l) => JSON.parse(l));

  it('writes one JSON object per line', () => {
    expect(text.endsWith('\n')).toBe(true);
    for (const e of events) expect(typeof e).toBe('object');
  });

  it('holds every attempt, op, fault event and effect, each with profile and type', () => {
    const count = (type: string) => events.filter((e) => e.type === type).length;
    const all = Object.values(histories);
    expect(count('attempt')).toBe(all.reduce((n, h) => n + h.attempts!.length, 0));
    expect(count('op')).toBe(all.reduce((n, h) => n + h.ops!.length, 0));
    expect(count('effect')).toBe(all.reduce((n, h) => n + h.effects.length, 0));
    expect(count('fault.on')).toBe(2);
    expect(count('fault.off')).toBe(1); // the EVIL profile's fault is never removed
    for (const e of events) {
      expect(Object.keys(histories)).toContain(e.profile);
      expect(typeof e.type).toBe('string');
    }
    expect(events.find((e) => e.type === 'fault.on' && e.profile === EVIL)?.tRelMs).toBe(500);
  });

  it('is sorted by time (one profile after another)', () => {
    for (let i = 1; i < events.length; i++) expect(events[i].t).toBeGreaterThanOrEqual(events[i - 1].t);
  });

  it('profiles run at once (--jobs) do not interleave: profile by profile in report order, each by time', () => {
    // The second profile ran during the first: its events are earlier than most of the first's.
    const second = structuredClone(histories[EVIL]);
    const shift = histories.good.startMs + 100 - second.startMs;
    second.startMs += shift;
    second.endMs += shift;
    for (const a of second.attempts!) a.startMs += shift;
    for (const o of second.ops!) o.startMs += shift;
    for (const e of second.effects) e.atMs += shift;
    for (const f of second.faults) f.onMs += shift;
    const mixed = traceEvents({ good: histories.good, later: second });
    const order = mixed.map((e) => e.profile);
    expect(order.indexOf('later')).toBe(order.lastIndexOf('good') + 1);
    expect(new Set(order.slice(order.indexOf('later')))).toEqual(new Set(['later']));
    for (const name of ['good', 'later']) {
      const t = mixed.filter((e) => e.profile === name).map((e) => e.t);
      expect(t).toEqual([...t].sort((a, b) => a - b));
    }
  });

  it('applies a fault before work that starts with it', () => {
    const at1000 = events.filter((e) => e.profile === 'good' && e.tRelMs === 1000).map((e) => e.type);
    expect(at1000[0]).toBe('fault.on');
  });

  it('leaves model-visible text out', () => {
    const leaky = renderTrace({ p: { ...histories.good, ops: [{ ...histories.good.ops![0], visible: 'SECRET' }] } });
    expect(leaky).not.toContain('SECRET');
    expect(leaky).toContain('"visibleChars":6');
  });

  it('gives each attempt what a person debugging needs, with arguments redacted', () => {
    const h = structuredClone(histories.good);
    const retried = h.attempts!.filter((a) => a.opId === 'gr');
    retried[1] = {
      ...retried[1],
      tool: 'create_payment',
      args: { amount_cents: 100, note: 'password=hunter2' },
      idempotencyKey: 'idem-gr',
      httpStatus: 200,
      requestId: 'req-9',
      backoffMs: 80,
    };
    h.attempts = [...h.attempts!.filter((a) => a.opId !== 'gr'), ...retried];
    const lines = traceEvents({ good: h }).filter((e) => e.type === 'attempt' && e.opId === 'gr');
    expect(lines[0]).toMatchObject({
      attempt: 1,
      tool: 'pay',
      outcome: 'failed',
      category: 'DEPENDENCY',
      errorCode: 'DEPENDENCY.UNAVAILABLE',
      latencyMs: 100,
      faults: ['dep-5xx'],
    });
    expect(lines[0]).not.toHaveProperty('gapMs');
    expect(lines[1]).toMatchObject({
      attempt: 2,
      tool: 'create_payment',
      args: { amount_cents: 100, note: 'password=[redacted]' },
      idempotencyKey: 'idem-gr',
      httpStatus: 200,
      requestId: 'req-9',
      backoffMs: 80,
      outcome: 'ok',
      gapMs: 100,
      latencyMs: 200,
      faults: ['dep-5xx'],
    });
    expect(JSON.stringify(lines)).not.toContain('hunter2');
  });

  it('keeps argument values (paths, queries) and redacts only secrets, by value or by a secret name', () => {
    const h = structuredClone(histories.good);
    const args = {
      path: '/tmp/faultline-run/f-1.txt',
      query: 'SELECT name FROM users WHERE id = 1',
      nested: { dirs: ['/srv/data/a', 'C:\\data\\b'] },
      note: 'sent with Bearer abc.def.ghi',
      password: 'hunter2',
      api_key: 'k-123',
      headers: { Authorization: 'xyz' },
    };
    h.attempts = [{ ...h.attempts![0], args }];
    const [line] = traceEvents({ good: h }).filter((e) => e.type === 'attempt');
    expect(line.args).toEqual({
      path: '/tmp/faultline-run/f-1.txt',
      query: 'SELECT name FROM users WHERE id = 1',
      nested: { dirs: ['/srv/data/a', 'C:\\data\\b'] },
      note: 'sent with Bearer [redacted]',
      password: '[redacted]',
      api_key: '[redacted]',
      headers: { Authorization: '[redacted]' },
    });
    for (const secret of ['hunter2', 'k-123', 'xyz', 'abc.def']) expect(JSON.stringify(line)).not.toContain(secret);
  });

  it('counts times from the workload start when the report gives it', () => {
    const run = sampleRun();
    run.profiles[0] = { ...run.profiles[0], workloadOffsetMs: 250 };
    const fault = traceEvents(histories, run).find((e) => e.type === 'fault.on' && e.profile === 'good');
    expect(fault?.tRelMs).toBe(750);
  });

  it("reads a run's effects as a view, in passes: each effect's line whole, by time, effects out of time order too", () => {
    const histories = sampleHistories();
    const [key, h] = Object.entries(histories)[0];
    // The ledger's order is not always time's (the same millisecond, another process): seq 3 came before 2.
    const atMs = [100, 300, 200, 500, 400];
    const effects: Effect[] = atMs.map((t, i) => ({
      seq: i + 1,
      atMs: h.startMs + t,
      kind: 'payment.charge',
      traceId: `op-${i + 1}`,
      details: { chargeId: `ch_${i + 1}` },
    }));
    let passes = 0;
    h.effects = {
      length: effects.length,
      *[Symbol.iterator]() {
        passes++;
        yield* effects.map((e) => structuredClone(e));
      },
    };
    const traced = traceEvents({ [key]: h }).filter((e) => e.type === 'effect');
    expect(traced.map((e) => e.seq)).toEqual([1, 3, 2, 5, 4]);
    expect(traced.map((e) => [e.t, e.details])).toEqual(
      [1, 3, 2, 5, 4].map((n) => [h.startMs + atMs[n - 1], { chargeId: `ch_${n}` }]),
    );
    // One pass to place them in time, one to write them.
    expect(passes).toBe(2);
  });
});
