import { describe, expect, it } from 'vitest';
import { pairingsOf } from '../../../src/core/pairing.ts';
import { buildProtocolMatrix } from '../../../src/measure/protocol-matrix.ts';
import { renderMarkdown } from '../../../src/report/markdown.ts';
import { EVIL, sampleHistories, sampleRun } from './fixtures.ts';
import { allPassSuite } from './suite-fixture.ts';

describe('renderMarkdown', () => {
  const md = renderMarkdown(sampleRun(), { histories: sampleHistories(), reportPath: 'out/report.json' });
  const lines = md.split('\n');

  it('heads with the run verdict and the tally, then what did not pass: an overview row, then its section', () => {
    expect(lines[0]).toBe('## ❌ Faultline fail: 1 of 2 run(s) passed');
    expect(lines[2]).toContain('passed 1, failed 1, inert 0, inconclusive 0, interrupted 0');
    expect(lines[4]).toBe('| | profile | policy | ops | retry success | dup/ghost/lost | recovery | thresholds |');
    expect(lines[6]).toContain('| naive | 2 | 0% of 1 | 1/1/0 | not recovered | **2 failed of 4** |');
    expect(lines[7]).toBe('');
    expect(lines[8]).toMatch(/^### ❌ /);
    expect(md.indexOf('### ❌')).toBeLessThan(md.indexOf('<details>'));
  });

  it('names the runs with indeterminate effects near the top, a pass too; nothing when there are none', () => {
    expect(renderMarkdown(sampleRun())).not.toContain('Indeterminate effects');
    const run = sampleRun();
    run.profiles[0].metrics.indeterminateEffects = 3;
    expect(renderMarkdown(run)).toContain(
      '> ⚠ **Indeterminate effects** (the op ended unknown, its effect happened): good (3)',
    );
  });

  it('names an inconclusive threshold with its margin and reason, and an interrupted run measured but not judged', () => {
    const run = sampleRun();
    const t = run.profiles[0].thresholds[0];
    run.profiles[0] = {
      ...run.profiles[0],
      verdict: 'inconclusive',
      thresholds: [{ ...t, ok: false, status: 'inconclusive', marginMs: 488, reason: 'within the delay' }],
    };
    run.profiles[1] = { ...run.profiles[1], verdict: 'interrupted', verdictReason: 'the run was stopped' };
    const out = renderMarkdown(run);
    expect(out).toContain(`- ❔ inconclusive "${t.expr}" at ${t.actual} ms, margin 488 ms: within the delay`);
    expect(out).toContain('| **1 inconclusive of 1** |');
    expect(out).toContain('> **Interrupted:** the run was stopped; measured so far: 2 ops');
    expect(out).toContain('| not judged (interrupted) |');
    expect(out).not.toContain('- ❌');
  });

  it('expands a failing profile: failed thresholds, the replay command, metrics, windows with hits, codes', () => {
    const section = md.slice(md.indexOf('### ❌'));
    expect(section).toContain('- ❌ `duplicate_effects == 0`: expected duplicate_effects == 0, actual 1');
    expect(section).toContain('```sh\nfaultline replay out/report.json\n```');
    expect(section).toContain('| `ghost_effects` | 1 |');
    expect(section).toContain('| fault | kind | on | off | hits | recovery |');
    expect(section).toContain('Errors by code: `INTERNAL.CRASH` 2');
    expect(section).toContain('- ops behind `duplicate_effects`: `b1` (op id = trace id)');
    expect(section).toContain('- ops behind `ghost_effects`: `b2` (op id = trace id)');
    expect(section).not.toContain('ops behind `lost_effects`');
  });

  it('collapses passes into one details block, a line each', () => {
    expect(md).not.toContain('### ✅ good');
    const details = md.slice(md.indexOf('<details>'), md.indexOf('</details>'));
    expect(details).toContain('1 run(s) passed');
    expect(details).toContain('- good: recovery_ms 40 ≤ 2000, retry_success_rate 1 ≥ 0.99; == 0: duplicate_effects');
  });

  it('keeps every table row intact when names hold pipes', () => {
    for (const row of lines.filter((l) => l.startsWith('|'))) {
      const cells = row.replace(/\\\|/g, '').split('|').length - 2;
      const header = lines[lines.indexOf(row) - 1];
      if (header?.startsWith('|')) {
        expect(cells, row).toBe(header.replace(/\\\|/g, '').split('|').length - 2);
      }
    }
    expect(md).toContain('### ❌ pay&lt;&amp;&gt;"\'\\|x: fail');
    expect(md).not.toMatch(/<peer>/);
    expect(EVIL).toContain('|');
  });

  it('labels a control run and says that it fired', () => {
    const run = sampleRun();
    run.profiles[1] = {
      ...run.profiles[1],
      control: true,
      verdict: 'pass',
      thresholds: [run.profiles[1].thresholds[2]],
    };
    const out = renderMarkdown(run);
    expect(out).toContain('- pay&lt;&amp;&gt;"\'\\|x (detector fired): duplicate_effects 1 &gt; 0');
    run.profiles[1] = {
      ...run.profiles[1],
      verdict: 'fail',
      thresholds: [{ ...run.profiles[1].thresholds[0], ok: false }],
    };
    expect(renderMarkdown(run)).toContain('| ❌ control |');
  });

  it('expands any verdict but pass under its own name, one it does not know too', () => {
    const run = sampleRun();
    run.profiles[0] = { ...run.profiles[0], verdict: 'inert' as never };
    const out = renderMarkdown(run);
    expect(out).toContain('### ⚪ good: inert');
    expect(out).toContain('passed 0, failed 1, inert 1');
    run.profiles[0] = { ...run.profiles[0], verdict: 'flaky' as never };
    const unknown = renderMarkdown(run);
    expect(unknown).toContain('### ❓ good: flaky');
    expect(unknown).toContain('interrupted 0, flaky 1');
  });

  it('says once above the pass lines which == 0 thresholds every pass held, and names the rest on their lines', () => {
    const suite = allPassSuite();
    const text = renderMarkdown(suite);
    expect(text).toContain('Every run below met == 0: unattributed_effects.');
    expect(text.match(/^- .*unattributed_effects/gm)).toBeNull();
    // One pass without it: nobody's line loses it, and no line says it for all.
    const first = suite.profiles[0];
    suite.profiles[0] = { ...first, thresholds: first.thresholds.filter((t) => t.metric !== 'unattributed_effects') };
    const mixed = renderMarkdown(suite);
    expect(mixed).not.toContain('Every run below met');
    expect(mixed.match(/^- .*unattributed_effects/gm)?.length).toBe(suite.profiles.length - 1);
  });

  it('stays under 10 KB for an all-pass default suite, a protocol: auto profile in two pairings and its matrix', () => {
    const suite = allPassSuite();
    expect(suite.profiles.length).toBeGreaterThanOrEqual(39);
    const at = suite.profiles.findIndex((p) => p.name === 'discover-faults');
    const auto = suite.profiles[at];
    suite.profiles.splice(at, 1, { ...auto, pairing: 'auto' }, { ...auto, pairing: 'auto-sdk1' });
    suite.matrix = buildProtocolMatrix(pairingsOf('matrix'), suite.profiles, []);
    const text = renderMarkdown(suite, { reportPath: 'faultline-report/report.json' });
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(10 * 1024);
    // Nothing failed, so nothing is expanded: the matrix, then every run a line in the collapsed passes.
    expect(text.match(/^### /gm)).toEqual(['### ']);
    expect(text).toContain('| discover-faults | ✅ pass');
    expect(text.match(/^- .*: /gm)?.length).toBeGreaterThanOrEqual(suite.profiles.length);
    expect(text).toContain('- discover-faults [auto-sdk1]: ');
    expect(text).toContain('- discover-faults [auto]: ');
  });

  it('names the pairing most runs were in once, in the header, and only the others on their pass lines', () => {
    const run = sampleRun();
    run.profiles = run.profiles.map((p) => ({ ...p, verdict: 'pass' as const, pairing: 'legacy' }));
    run.profiles.push({ ...run.profiles[0], name: 'other', pairing: 'modern' });
    run.profiles.push({ ...run.profiles[0], name: 'third', pairing: 'legacy' });
    const md = renderMarkdown(run);
    expect(md.split('\n')[2]).toContain(' · pairing legacy unless named · ');
    expect(md).toContain('\n- other [modern]: ');
    expect(md).toContain('\n- third: ');
    expect(md).not.toMatch(/^- .*\[legacy\]/m);
  });

  it('cuts a long n/a reason to a line at a word, and keeps a short one whole (report.json keeps it all)', () => {
    const long = `edge fault x: ${'a closed stream is not a cancellation '.repeat(5)}`;
    const run = {
      ...sampleRun(),
      notApplicable: [
        { profile: 'p-long', pairing: 'legacy', reason: long },
        { profile: 'p-short', pairing: 'legacy', reason: 'edge fault y: no such header' },
      ],
    };
    const md = renderMarkdown(run);
    const line = md.split('\n').find((l) => l.startsWith('- p-long [legacy]: '))!;
    // Cut at the last word that fits in 100 characters, never mid-word.
    expect(line).toBe(
      '- p-long [legacy]: edge fault x: a closed stream is not a cancellation a closed stream is not a cancellation a closed …',
    );
    expect(md).toContain('- p-short [legacy]: edge fault y: no such header\n');
  });
});
