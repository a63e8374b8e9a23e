// A faults-off control must never read as a real run: the console and summary.md say so at the top and for each
// profile, naming whether its faults mattered; a relative threshold shows its control value and bound.
import { describe, expect, it } from 'vitest';
import { faultsOffVerdict } from '../../../src/measure/faults-off.ts';
import type { RunReport } from '../../../src/measure/run-report.ts';
import { formatConsoleSummary } from '../../../src/report/console.ts';
import { renderMarkdown } from '../../../src/report/markdown.ts';
import { sampleRun } from './fixtures.ts';

function faultsOffRun(): RunReport {
  const run = sampleRun();
  const profiles = run.profiles.map((p) => ({ ...p, faultsOff: true as const }));
  return { ...run, profiles, faultsOff: { verdict: faultsOffVerdict({ profiles }) } };
}

describe('a faults-off control in the reports', () => {
  it('says so in the console header and per profile', () => {
    const run = faultsOffRun();
    const text = formatConsoleSummary(run, { color: false });
    expect(text).toContain(
      `${run.faultsOff?.verdict.toUpperCase()} FAULTS-OFF CONTROL: every profile ran with its faults removed, not a real run`,
    );
    const passed = run.profiles.filter((p) => p.verdict === 'pass').length;
    expect(passed).toBeGreaterThan(0);
    expect(text.match(/faults-off control: DEFECT, every threshold held without its faults/g)).toHaveLength(passed);
    expect(text).toMatch(/faults-off control: its faults matter \(\d+ of \d+ thresholds failed without them\)/);
    expect(formatConsoleSummary(sampleRun(), { color: false })).not.toContain('FAULTS-OFF');
  });

  it('says so at the top of summary.md and in the overview rows', () => {
    const md = renderMarkdown(faultsOffRun());
    expect(md).toContain('**Faults-off control (fail), not a real run:**');
    // Only what did not pass gets an overview row: the faults-off control that failed, as it should.
    expect(md).toMatch(/^\| \S+ faults-off \| /m);
    expect(renderMarkdown(sampleRun())).not.toContain('Faults-off');
  });

  it('shows a relative threshold with the control value and the bound', () => {
    const run = sampleRun();
    const [p] = run.profiles;
    p.thresholds = [
      {
        expr: 'latency_p99_ms <= 3 x control',
        metric: 'latency_p99_ms',
        op: '<=',
        target: 3,
        actual: 130,
        ok: true,
        status: 'pass',
        relative: { factor: 3, control: 50, bound: 150 },
      },
    ];
    expect(formatConsoleSummary(run, { color: false, verbose: true })).toContain(
      '✓ latency_p99_ms <= 3 x control: latency_p99_ms 130 <= 3 x control (control 50 → bound 150)',
    );
  });

  it('shows a missed relative bound with the machine delay it was judged against', () => {
    const run = sampleRun();
    const [p] = run.profiles;
    const missed = (status: 'fail' | 'inconclusive', marginMs: number) => ({
      expr: 'latency_p99_ms <= 3 x control',
      metric: 'latency_p99_ms',
      op: '<=' as const,
      target: 3,
      actual: 190,
      ok: false,
      status,
      marginMs,
      reason: `over its bound by 40 ms, ${status === 'fail' ? 'more than' : 'within'} the machine's measured delay of ${marginMs} ms`,
      relative: { factor: 3, control: 50, bound: 150 },
    });
    p.verdict = 'fail';
    p.thresholds = [missed('fail', 20)];
    expect(formatConsoleSummary(run, { color: false, verbose: true })).toContain(
      "3 x control (control 50 → bound 150) (more than the machine's measured delay of 20 ms), actual 190",
    );
    p.thresholds = [{ ...missed('fail', 30), expr: 'latency_p99_ms >= 3 x control', op: '>=' as const, actual: 100 }];
    expect(formatConsoleSummary(run, { color: false, verbose: true })).toContain(
      "3 x control (control 50 → bound 150) (more than 3 x the control's machine delay (30 ms)), actual 100",
    );
    p.verdict = 'inconclusive';
    p.thresholds = [missed('inconclusive', 60)];
    expect(formatConsoleSummary(run, { color: false, verbose: true })).toContain(
      '"latency_p99_ms <= 3 x control" at 190 ms, margin 60 ms: over its bound by 40 ms, within the machine\'s measured delay of 60 ms',
    );
  });
});
