import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { History } from '../../../src/core/history.ts';
import { htmlPieces, renderHtml } from '../../../src/report/html.ts';
import { sampleHistories, sampleRun } from './fixtures.ts';

describe('renderHtml', () => {
  const histories = sampleHistories();
  const html = renderHtml(sampleRun(), histories, { reportPath: 'out/report.json' });
  const section = (name: string) => html.slice(html.indexOf(`<section id="profile-${name}`)).split('</section>')[0];

  it('shows the verdict of the run and each profile, with the tally', () => {
    expect(html).toMatch(/<h1>Faultline <span class="verdict" style="background:#d1242f">FAIL<\/span><\/h1>/);
    expect(html).toMatch(/<h2>good <span class="verdict" style="background:#1a7f37">PASS<\/span><\/h2>/);
    expect(html).toContain('2 profile(s): passed 1, failed 1, inert 0, inconclusive 0, interrupted 0');
  });

  it('is self-contained and readable at phone width', () => {
    expect(html).not.toMatch(/<script|<link|\bsrc=|href="(https?:)?\/\//i);
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('<meta name="viewport" content="width=device-width,initial-scale=1">');
    expect(html).toContain('@media (max-width:640px)');
    for (const svg of html.match(/<svg [^>]*>/g) ?? []) {
      expect(svg).toContain('width="100%"');
      expect(svg).toMatch(/viewBox="0 0 \d+ \d+"/);
    }
  });

  it('escapes names and messages', () => {
    expect(html).not.toContain(`pay<&>`);
    expect(html).toContain('pay&lt;&amp;&gt;&quot;&#39;|x');
  });

  it('draws per profile a timeline, a latency distribution and retry success per fault kind', () => {
    const good = section('good');
    expect(good.match(/<svg [^>]*class="chart timeline"/g)).toHaveLength(1);
    expect(good.match(/<svg [^>]*class="chart latency"/g)).toHaveLength(1);
    expect(good.match(/<svg [^>]*class="chart retry-by-kind"/g)).toHaveLength(1);
    expect(good.match(/<circle class="op /g)).toHaveLength(histories.good.ops!.length);
    expect(good).toContain('class="fault"');
    expect(good).toContain('class="recovered"');
    expect(good).toMatch(/class="mark-p50"[\s\S]*class="mark-p95"[\s\S]*class="mark-p99"/);
    expect(good).toContain('100% (1/1)');
  });

  it('puts failures first with the commands that reproduce them', () => {
    const bad = html.slice(html.lastIndexOf('<section'));
    expect(bad.indexOf('<ul class="failed">')).toBeLessThan(bad.indexOf('<h3>Timeline</h3>'));
    expect(bad).toContain('expected duplicate_effects == 0, actual 1');
    expect(bad).toContain('<pre class="replay">faultline replay out/report.json</pre>');
    expect(section('good')).toContain(
      `faultline run ${resolve('chaos-profiles/good.yaml')} --seed 7 --policy resilient\nfaultline replay out/report.json`,
    );
  });

  it('lists the ops behind each effect number with their trace ids and ledger keys', () => {
    const bad = html.slice(html.lastIndexOf('<section'));
    const effects = bad.slice(bad.indexOf('<table class="effects'));
    expect(effects).toMatch(
      /<code>duplicate_effects<\/code><\/th><td class="num" data-label="value">1<\/td><td[^>]*>1 op\(s\): <ul class="ops"><li><code>b1<\/code> pay, ok, 1 attempt\(s\), started 0 ms; 2 effect\(s\) at 50 ms, 60 ms/,
    );
    expect(effects).toMatch(/<code>ghost_effects<\/code>[\s\S]*?<code>b2<\/code> pay, fail/);
  });

  it('gives times from the workload start and shows hits when the run counted them', () => {
    const run = sampleRun();
    run.profiles[0] = { ...run.profiles[0], workloadOffsetMs: 200 };
    const h = sampleHistories();
    h.good.faults[0] = { ...h.good.faults[0], hits: 12 } as never;
    const out = renderHtml(run, h);
    const windows = out.slice(out.indexOf('<table class="windows'));
    // The fault went on 1000 ms after the run start, 800 ms into the workload.
    expect(windows).toContain('<td class="num" data-label="on">800 ms</td>');
    expect(windows).toContain('<td class="num" data-label="hits">12</td>');
    expect(out).toContain('#1 hits: 12');
    expect(html).toContain('<td class="num" data-label="hits">not counted</td>');
  });

  it('labels a control as one and a verdict it does not know by its name, in the failure style', () => {
    const run = sampleRun();
    run.profiles[1] = {
      ...run.profiles[1],
      control: true,
      verdict: 'pass',
      thresholds: [run.profiles[1].thresholds[2]],
    };
    run.profiles[0] = { ...run.profiles[0], verdict: 'inert' as never };
    const out = renderHtml(run, histories);
    expect(out).toContain('<span class="verdict" style="background:#0969da">DETECTOR FIRED</span></h2>');
    expect(out).toContain('<p class="control">detector fired: duplicate_effects 1 &gt; 0</p>');
    expect(out).toContain('INERT</span></h2>');
    expect(out).not.toMatch(/<h2>good <span[^>]*>PASS/);
  });

  it('marks an inconclusive threshold with its margin and reason, and an interrupted run’s as not judged', () => {
    const run = sampleRun();
    const t = run.profiles[0].thresholds[0];
    run.profiles[0] = {
      ...run.profiles[0],
      verdict: 'inconclusive',
      thresholds: [{ ...t, ok: false, status: 'inconclusive', marginMs: 488, reason: 'within the delay' }],
    };
    run.profiles[1] = { ...run.profiles[1], verdict: 'interrupted', verdictReason: 'the run was stopped' };
    const out = renderHtml(run, histories);
    expect(out).toContain(
      `<li>? inconclusive &quot;${t.expr.replace('<', '&lt;')}&quot; at ${t.actual} ms, margin 488 ms: within the delay</li>`,
    );
    expect(out).toContain('<strong>Interrupted:</strong> the run was stopped; measured so far: 2 ops');
    expect(out).toContain('not judged (interrupted)');
    expect(out).not.toContain('<ul class="failed">');
    expect(out).not.toContain('<td>✘</td>');
  });

  it('still renders from report.json alone (no history): tables, no timeline', () => {
    const out = renderHtml(sampleRun(), {});
    expect(out).toContain('no history recorded');
    expect(out).not.toContain('class="chart timeline"');
    expect(out).toContain('<table class="effects');
  });

  // A writer lets the event loop run between pieces (write-chunks.ts); that helps only if each pass over the records
  // happens as its piece is taken, not all of them before the first.
  it('passes over the records piece by piece, as each is taken', () => {
    const reads: number[] = [];
    let passes = 0;
    const counted = Object.fromEntries(
      Object.entries(sampleHistories()).map(([name, h]) => {
        const ops = h.ops;
        const view: History = { ...h };
        Object.defineProperty(view, 'ops', {
          get: () => {
            passes++;
            return ops;
          },
        });
        return [name, view];
      }),
    );
    const pieces: string[] = [];
    for (const piece of htmlPieces(sampleRun(), counted, { reportPath: 'out/report.json' })) {
      reads.push(passes);
      pieces.push(piece);
    }
    expect(pieces.join('')).toBe(html);
    expect(reads[0]).toBe(0);
    // The passes come in several steps, one or two at a time, not at once.
    const steps = reads.slice(1).map((n, i) => n - reads[i]);
    expect(steps.filter((n) => n > 0).length).toBeGreaterThanOrEqual(6);
    expect(Math.max(...steps)).toBeLessThan(passes / 2);
  });
});
