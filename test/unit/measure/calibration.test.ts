import { describe, expect, it } from 'vitest';
import {
  assessCalibration,
  type CalibrationSample,
  KEEP_UP_SHARE,
  LOAD_SHARE,
  MARGIN_CALLS,
  machineDelayMs,
  type ProbeSample,
  REFERENCE_P95_MS,
  withRunLoad,
} from '../../../src/measure/calibration.ts';
import { evaluateThresholds } from '../../../src/measure/thresholds.ts';
import { buildProfileReport } from '../../../src/measure/verdict.ts';
import { fault, history, op, series } from './fixtures.ts';

const sample = (p95Ms: number, extra: Partial<CalibrationSample> = {}): CalibrationSample => ({
  calls: 20,
  timedOut: 0,
  p50Ms: p95Ms / 2,
  p95Ms,
  maxMs: p95Ms * 1.5,
  ...extra,
});
const timing = { attemptTimeoutMs: 2000, shortestWindowMs: 1500 };

describe('assessCalibration', () => {
  it('needs no margin and finds nothing wrong on a machine as fast as the reference', () => {
    const c = assessCalibration(sample(REFERENCE_P95_MS), timing);
    expect(c).toMatchObject({ marginMs: 0, referenceP95Ms: REFERENCE_P95_MS });
    expect(c.tooLoaded).toBeUndefined();
  });

  it('scales the margin with the excess over the reference p95', () => {
    const c = assessCalibration(sample(REFERENCE_P95_MS + 30), timing);
    expect(c.marginMs).toBe(MARGIN_CALLS * 30);
    expect(c.tooLoaded).toBeUndefined();
  });

  it('is too loaded past a share of the attempt timeout or of the shortest window, or when a ping timed out', () => {
    const overAttempt = assessCalibration(sample(LOAD_SHARE * 2000 + 1), { attemptTimeoutMs: 2000 });
    expect(overAttempt.tooLoaded).toMatch(/over 25% of the client's attempt timeout \(2000 ms\)/);
    const overWindow = assessCalibration(sample(LOAD_SHARE * 1500 + 1), {
      attemptTimeoutMs: 10_000,
      shortestWindowMs: 1500,
    });
    expect(overWindow.tooLoaded).toMatch(/over 25% of the shortest fault window \(1500 ms\)/);
    expect(assessCalibration(sample(10, { timedOut: 2 }), timing).tooLoaded).toMatch(/2 of 20 calibration pings/);
  });

  it('leaves a server without ping alone: no margin, never inconclusive', () => {
    const c = assessCalibration({ calls: 0, timedOut: 0, unavailable: 'the server did not answer ping' }, timing);
    expect(c).toMatchObject({ marginMs: 0 });
    expect(c.tooLoaded).toBeUndefined();
  });
});

describe('assessCalibration: the rate probe', () => {
  const open = (extra: Partial<ProbeSample> = {}): ProbeSample => ({
    model: 'open',
    intendedRate: 20,
    calls: 8,
    timedOut: 0,
    achievedRate: 20,
    p50Ms: 4,
    p95Ms: 6,
    maxMs: 6,
    durationMs: 360,
    ...extra,
  });
  const withProbe = (probe: ProbeSample, t: typeof timing | { attemptTimeoutMs: number } = timing) =>
    assessCalibration({ ...sample(REFERENCE_P95_MS), probe }, t);
  const noWindow = { attemptTimeoutMs: 2000 };

  it('finds nothing wrong with a probe that kept up, and leaves the margin to the idle pings', () => {
    const c = withProbe(open({ p95Ms: 300 }));
    expect(c.tooLoaded).toBeUndefined();
    expect(c.marginMs).toBe(0);
    expect(c.probe?.achievedRate).toBe(20);
  });

  it('is too loaded when the open-model probe completed under KEEP_UP_SHARE of the intended rate', () => {
    expect(KEEP_UP_SHARE).toBe(0.8);
    expect(withProbe(open({ achievedRate: 16 })).tooLoaded).toBeUndefined();
    expect(withProbe(open({ achievedRate: 15.9 })).tooLoaded).toBe(
      "the calibration probe at the workload's rate (20/s) completed 15.9 calls/s, under 80% of the intended 20/s: the machine cannot keep up with this profile's load",
    );
  });

  it('is too loaded past a share of the attempt timeout or the shortest window, or when a probe ping timed out', () => {
    expect(withProbe(open({ p95Ms: 500 }), noWindow).tooLoaded).toBeUndefined();
    expect(withProbe(open({ p95Ms: 501 }), noWindow).tooLoaded).toBe(
      "calibration probe p95 501 ms at the workload's rate (20/s) is over 25% of the client's attempt timeout (2000 ms): the machine is too loaded for this profile's load",
    );
    const overWindow = assessCalibration(
      { ...sample(REFERENCE_P95_MS), probe: open({ p95Ms: 376 }) },
      { attemptTimeoutMs: 10_000, shortestWindowMs: 1500 },
    );
    expect(overWindow.tooLoaded).toBe(
      "calibration probe p95 376 ms at the workload's rate (20/s) is over 25% of the shortest fault window (1500 ms): the machine is too loaded for this profile's load",
    );
    expect(withProbe(open({ timedOut: 1 })).tooLoaded).toBe(
      "1 of 8 calibration probe pings at the workload's rate (20/s) took longer than the attempt timeout (2000 ms) with no fault on",
    );
  });

  it('judges a closed-model probe by its p95 only (there is no intended rate to fall behind)', () => {
    const closed = open({ model: 'closed', intendedRate: undefined, concurrency: 4, achievedRate: 1 });
    expect(withProbe(closed).tooLoaded).toBeUndefined();
    expect(withProbe({ ...closed, p95Ms: 600 }, noWindow).tooLoaded).toMatch(
      /^calibration probe p95 600 ms at the workload's concurrency \(4\) is over 25% of the client's attempt timeout/,
    );
  });

  it('does not judge a probe that got another answer than a pong, nor one with too few completions for a rate', () => {
    expect(
      withProbe(open({ achievedRate: 1, unavailable: 'the server did not answer ping (x)' })).tooLoaded,
    ).toBeUndefined();
    expect(withProbe(open({ achievedRate: undefined })).tooLoaded).toBeUndefined();
  });

  it('an idle-ping finding comes first', () => {
    const c = assessCalibration({ ...sample(LOAD_SHARE * 2000 + 1), probe: open({ achievedRate: 1 }) }, timing);
    expect(c.tooLoaded).toMatch(/^calibration p95 501 ms is over 25% of the client's attempt timeout/);
  });
});

describe('the calibration margin on thresholds', () => {
  // One fault window 1000..2000 ms; the first success after it comes 300 ms later.
  const h = history({
    ops: [...series('pre', 0, 10, 90), op('post', 2000, 2300), ...series('late', 2400, 10, 60)],
    faults: [{ ...fault('f0', 1000, 2000), hits: 4 }],
  });
  const metrics = buildProfileReport({
    name: 'p',
    seed: 1,
    policy: 'resilient',
    history: h,
    expect: [],
    decisionLogSha256: '',
  }).metrics;

  it('judges each threshold: a missed time upper bound within the machine delay is inconclusive, nothing else is', () => {
    const [within, beyond, held, lower, count] = evaluateThresholds(
      [
        'first_success_ms <= 200',
        'first_success_ms <= 150',
        'first_success_ms <= 400',
        'first_success_ms >= 350',
        'ops <= 5',
      ],
      metrics,
      120,
    );
    // 300 ms against 200: 100 over, within the 120 ms the machine explains.
    expect(within).toMatchObject({ target: 200, actual: 300, ok: false, status: 'inconclusive', marginMs: 120 });
    expect(within.reason).toBe("over its bound by 100 ms, within the machine's measured delay of 120 ms");
    // 150 over: more than load explains.
    expect(beyond).toMatchObject({ actual: 300, ok: false, status: 'fail', marginMs: 120 });
    // Load only inflates times: a held upper bound passes, and a missed lower bound or a count fails.
    expect(held).toMatchObject({ ok: true, status: 'pass' });
    expect(held.marginMs).toBeUndefined();
    expect(lower).toMatchObject({ ok: false, status: 'fail' });
    expect(lower.marginMs).toBeUndefined();
    expect(count).toMatchObject({ ok: false, status: 'fail' });
    // On a machine as fast as the reference, the same miss fails.
    expect(evaluateThresholds(['first_success_ms <= 200'], metrics)[0].status).toBe('fail');
  });

  it('makes the profile inconclusive only when its sole misses are time bounds the machine explains', () => {
    const judge = (p95Ms: number, extra: string[] = []) =>
      buildProfileReport({
        name: 'p',
        seed: 1,
        policy: 'resilient',
        history: h,
        expect: ['first_success_ms <= 200', 'ops >= 1', ...extra],
        decisionLogSha256: '',
        calibration: assessCalibration(sample(p95Ms), timing),
      });
    // p95 900 ms: margin 4 x 895 = 3580 ms, the machine is too loaded, and still only the time bound is excused.
    const loaded = judge(900);
    expect(loaded.verdict).toBe('inconclusive');
    expect(loaded.verdictReason).toBe(
      `"first_success_ms <= 200" at 300 ms: over its bound by 100 ms, within the machine's measured delay of 3580 ms`,
    );
    expect(loaded.notes.join('\n')).toMatch(/machine load: calibration p95 900 ms/);
    // A count that fails beside it fails the profile, however loaded the machine.
    expect(judge(900, ['ops_fail >= 1']).verdict).toBe('fail');
    // An n/a fails too: nothing measured is never excused.
    expect(judge(900, ['retry_success_rate >= 1']).verdict).toBe('fail');
    const quiet = judge(REFERENCE_P95_MS);
    expect(quiet.verdict).toBe('fail');
    expect(quiet.calibration?.marginMs).toBe(0);
  });

  it('passes a held time bound on a loaded machine (the reverse bend)', () => {
    const r = buildProfileReport({
      name: 'p',
      seed: 1,
      policy: 'resilient',
      history: h,
      expect: ['first_success_ms <= 1000', 'ops >= 1'],
      decisionLogSha256: '',
      calibration: assessCalibration(sample(900), timing),
    });
    expect(r.calibration?.tooLoaded).toBeDefined();
    expect(r.verdict).toBe('pass');
  });

  it('fails, not inconclusive, on a loaded machine when a threshold needs effects the target cannot show', () => {
    const judge = (effectsObservable: boolean, p95Ms: number) =>
      buildProfileReport({
        name: 'p',
        seed: 1,
        policy: 'resilient',
        history: { ...h, effectsObservable },
        expect: ['duplicate_effects == 0', 'first_success_ms <= 200'],
        decisionLogSha256: '',
        calibration: assessCalibration(sample(p95Ms), timing),
      });
    const blind = judge(false, 900);
    expect(blind.verdict).toBe('fail');
    expect(blind.verdictReason).toBe(
      '"duplicate_effects == 0" cannot be measured on this target, whatever the machine\'s load',
    );
    expect(judge(false, REFERENCE_P95_MS).verdict).toBe('fail');
    // Negative control: with effects to see, the same loaded machine is inconclusive on its time bound alone.
    expect(judge(true, 900).verdict).toBe('inconclusive');
  });
});

describe('withRunLoad: load that rose after the calibration', () => {
  const quiet = assessCalibration(sample(REFERENCE_P95_MS), timing);
  const lag = (maxMs: number, cpuWaitShare?: number) => ({
    p99Ms: maxMs / 4,
    maxMs,
    samples: 300,
    ...(cpuWaitShare !== undefined && { cpuWaitShare }),
  });

  it("is too loaded when the machine's part of a stall is over a share of the attempt timeout, in either process", () => {
    // 1200 ms stall, 60% of it waiting for a CPU: 720 ms, over a quarter of the 2000 ms attempt timeout.
    const starved = withRunLoad(quiet, { harness: lag(1200, 0.6) }, 2000);
    expect(starved.tooLoaded).toMatch(/the harness's event loop stalled for up to 1200 ms while it waited 60%/);
    expect(starved.tooLoaded).toMatch(/machine's 720 ms .* over 25% of the client's attempt timeout \(2000 ms\)/);
    expect(starved.duringRun).toEqual({ harness: lag(1200, 0.6) });
    const server = withRunLoad(quiet, { harness: lag(10, 0.3), server: lag(1000, 0.4) }, 1000);
    expect(server.tooLoaded).toMatch(/the server's event loop stalled for up to 1000 ms .* machine's 400 ms/);
    // Just under the bound: 0.25 x 2000 = 500 ms, and 999 x 0.5 = 499.5 ms.
    expect(withRunLoad(quiet, { harness: lag(999, 0.5) }, 2000).tooLoaded).toBeUndefined();
  });

  it("leaves a stall the process caused itself alone (a 20 MB payload parsed on a busy machine), and a quiet run's", () => {
    // Measured with stress-ng --cpu 2: oversized-payloads' harness stalled 523 ms waiting 48%, attempt timeout 15 s.
    const selfInflicted = withRunLoad(quiet, { harness: lag(523.2, 0.48) }, 15000);
    expect(selfInflicted.tooLoaded).toBeUndefined();
    expect(selfInflicted.duringRun?.harness?.maxMs).toBe(523.2);
    expect(withRunLoad(quiet, { harness: lag(12, 0.3), server: lag(20, 0.3) }, 2000).tooLoaded).toBeUndefined();
  });

  it('reports, but does not judge, stalls where the system does not count the wait for a CPU', () => {
    const c = withRunLoad(quiet, { harness: lag(1900) }, 2000);
    expect(c.tooLoaded).toBeUndefined();
    expect(c.duringRun?.harness?.maxMs).toBe(1900);
  });

  it('keeps the start-up reason first, and leaves a run with nothing watched as it was', () => {
    const loaded = assessCalibration(sample(LOAD_SHARE * 2000 + 1), timing);
    expect(withRunLoad(loaded, { harness: lag(1200, 0.6) }, 2000).tooLoaded).toBe(loaded.tooLoaded);
    expect(withRunLoad(quiet, {}, 2000)).toBe(quiet);
  });

  it('never excuses a count when a run starved mid-way, and adds the stall to the machine delay of a time bound', () => {
    const h = history({ ops: [op('a', 0, 100, 'fail')] });
    const input = {
      name: 'p',
      seed: 1,
      policy: 'resilient',
      history: h,
      expect: ['ops_fail == 0'],
      decisionLogSha256: '',
    };
    const starved = withRunLoad(quiet, { harness: lag(1200, 0.6) }, 2000);
    expect(buildProfileReport({ ...input, calibration: starved }).verdict).toBe('fail');
    // The op took 100 ms against a 50 ms bound: the 720 ms the machine stalled explains it, a calm run does not.
    const timed = { ...input, expect: ['latency_max_ms <= 50'] };
    expect(machineDelayMs(starved)).toBe(720);
    expect(buildProfileReport({ ...timed, calibration: starved }).verdict).toBe('inconclusive');
    const calm = withRunLoad(quiet, { harness: lag(1200, 0.01) }, 2000);
    expect(buildProfileReport({ ...timed, calibration: calm }).verdict).toBe('fail');
  });
});
