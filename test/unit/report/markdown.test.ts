import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../../src/report/markdown.ts';
import { EVIL, sampleHistories, sampleRun } from './fixtures.ts';
import { allPassSuite } from './suite-fixture.ts';

describe('renderMarkdown', () => {
  const md = renderMarkdown(sampleRun(), { histories: sampleHistories(), reportPath: 'out/report.json' });
  const lines = md.split('\n');

  it('heads with the run verdict and the tally, then an overview table of every profile', () => {
    expect(lines[0]).toBe('## ❌ Faultline fail: 1 of 2 profile(s) passed');
    expect(lines[2]).toContain('passed 1, failed 1, inert 0, inconclusive 0, interrupted 0');
    expect(lines[4]).toBe('| | profile | policy | ops | retry success | dup/ghost/lost | recovery | thresholds |');
    expect(lines[6]).toBe('| ✅ | good | resilient | 41 | 100% of 1 | 0/0/0 | 40 ms | 4 ok |');
    expect(lines[7]).toContain('| naive | 2 | 0% of 1 | 1/1/0 | not recovered | **2 of 4 failed** |');
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
    expect(details).toContain('1 profile(s) passed');
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
    expect(out).toContain('| 🎯 control |');
    expect(out).toContain('(control fired): duplicate_effects 1 &gt; 0');
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

  it('stays compact for an all-pass default suite of every shipped profile: one short row per profile', () => {
    const suite = allPassSuite();
    expect(suite.profiles.length).toBeGreaterThanOrEqual(39);
    const text = renderMarkdown(suite, { reportPath: 'faultline-report/report.json' });
    // A header and one overview row per pass (about 11 KB for 43 profiles), far inside a PR comment's 64 KB.
    expect(Buffer.byteLength(text)).toBeLessThan(1000 + 225 * suite.profiles.length);
    expect(text).not.toContain('###');
    expect(text.match(/^\| ✅ \| /gm)).toHaveLength(suite.profiles.length);
  });
});
