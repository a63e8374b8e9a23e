// The calibration as the reports show it: the p95 in each profile's header, the machine delay next to a missed time
// bound, an inconclusive profile's reason naming its thresholds, and report.json still valid against its schema.
import { describe, expect, it } from 'vitest';
import { assessCalibration } from '../../../src/measure/calibration.ts';
import { buildProfileReport, buildRunReport } from '../../../src/measure/verdict.ts';
import { formatConsoleSummary } from '../../../src/report/console.ts';
import { renderJson } from '../../../src/report/json.ts';
import { renderMarkdown } from '../../../src/report/markdown.ts';
import { runReportSchema } from '../../../src/report/report-schema.ts';
import { probeNeedless } from '../../../src/run/calibrate.ts';
import { T0 } from '../measure/fixtures.ts';
import { sampleHistories } from './fixtures.ts';

function calibratedRun() {
  const h = sampleHistories();
  const timing = { attemptTimeoutMs: 2000, shortestWindowMs: 1000 };
  const sample = (p95Ms: number) => ({ calls: 20, timedOut: 0, p50Ms: p95Ms / 2, p95Ms, maxMs: p95Ms });
  // At 5/s, 35 ms calls keep the pair busy 18% of each second: no probe (run/calibrate.ts); at 800 ms one ran.
  const probed = (p95Ms: number) => probeNeedless({ intendedRate: 5 }, sample(p95Ms));
  const profile = (name: string, p95Ms: number, expect: string[]) =>
    buildProfileReport({
      name,
      seed: 7,
      policy: 'resilient',
      history: h.good,
      expect,
      decisionLogSha256: 'a'.repeat(64),
      calibration: assessCalibration({ ...sample(p95Ms), probe: probed(p95Ms) }, timing),
    });
  return buildRunReport({
    seed: 7,
    startedAt: new Date(T0),
    durationMs: 9000,
    profiles: [
      profile('slow', 35, ['latency_p99_ms < 200', 'duplicate_effects == 0']),
      profile('loaded', 800, ['latency_p99_ms < 200', 'duplicate_effects == 0']),
      buildProfileReport({
        name: 'behind',
        seed: 7,
        policy: 'resilient',
        history: h.good,
        expect: ['duplicate_effects == 0'],
        decisionLogSha256: 'a'.repeat(64),
        calibration: assessCalibration(
          {
            ...sample(5),
            probe: {
              model: 'open',
              intendedRate: 25,
              calls: 10,
              timedOut: 0,
              achievedRate: 17.9,
              p50Ms: 178.4,
              p95Ms: 304.8,
              maxMs: 304.8,
              durationMs: 539,
            },
          },
          timing,
        ),
      }),
    ],
  });
}

describe('calibration in the reports', () => {
  const run = calibratedRun();

  it('console: p95 and margin in the header, the machine delay on a missed bound, the inconclusive thresholds', () => {
    const text = formatConsoleSummary(run, { color: false, verbose: true });
    expect(text).toContain(
      'FAIL slow (resilient, seed 7, calibration p95 35 ms, margin +120 ms, probe 5/s not needed)',
    );
    expect(text).toMatch(
      /✗ latency_p99_ms < 200: expected latency_p99_ms < 200 \(more than the machine's measured delay of 120 ms\), actual 400/,
    );
    expect(text).toContain('INCONCLUSIVE loaded (resilient, seed 7, calibration p95 800 ms, margin +3180 ms)');
    expect(text).toContain(
      `"latency_p99_ms < 200" at 400 ms, margin 3180 ms: over its bound by 200 ms, within the machine's measured delay of 3180 ms`,
    );
    // A probe that could not keep up is information: the count threshold decides, and it held.
    expect(text).toContain('PASS behind (resilient, seed 7, calibration p95 5 ms, probe 25/s: 17.9/s p95 304.8 ms)');
  });

  it('summary.md: the calibration in the line of each profile that did not pass, the inconclusive thresholds quoted', () => {
    const md = renderMarkdown(run);
    expect(md).toContain('calibration p95 35 ms, margin +120 ms');
    expect(md).toMatch(
      /- ❔ inconclusive "latency_p99_ms &lt; 200" at 400 ms, margin 3180 ms: over its bound by 200 ms/,
    );
    // A pass is one short line: its calibration is in report.json and report.html.
    expect(md).not.toContain('calibration p95 5 ms, probe 25/s: 17.9/s p95 304.8 ms');
  });

  it('report.json: calibration and marginMs are in the schema', () => {
    const json = JSON.parse(renderJson(run));
    expect(runReportSchema.safeParse(json).error?.issues).toBeUndefined();
    expect(json.profiles[0].calibration).toMatchObject({ p95Ms: 35, referenceP95Ms: 5, marginMs: 120 });
    expect(json.profiles[0].calibration.probe).toMatchObject({
      calls: 0,
      skipped: expect.stringMatching(/^not needed: 5\/s x the idle p95 of 35 ms keeps the pair busy 18% /),
    });
    expect(json.profiles[1].calibration.probe).toBeUndefined();
    expect(json.profiles[2].calibration.probe).toMatchObject({ model: 'open', intendedRate: 25, achievedRate: 17.9 });
    expect(json.profiles[0].thresholds[0]).toMatchObject({
      expr: 'latency_p99_ms < 200',
      target: 200,
      marginMs: 120,
      ok: false,
      status: 'fail',
    });
    expect(json.profiles[1].thresholds[0]).toMatchObject({ status: 'inconclusive', marginMs: 3180 });
    expect(json.profiles[2].notes.join('\n')).toContain('machine load: the calibration probe');
    expect(json.profiles[0].metrics.perFaultHit).toEqual(expect.objectContaining({ ratios: expect.any(Object) }));
  });
});
