// Number and threshold formatting shared by the human-facing writers.
import type { Calibration } from '../measure/calibration.ts';
import { faultsMatter } from '../measure/faults-off.ts';
import type { ProfileReport } from '../measure/run-report.ts';
import { isTimeUpperBound, type ThresholdResult } from '../measure/thresholds.ts';
import type { Metrics, RecoveryWindow } from '../measure/types.ts';
import { detectorThresholds, isDetectorRun } from './detector.ts';

export function fmtMs(ms: number | null): string {
  if (ms === null) return '–';
  return ms >= 10_000 ? `${(ms / 1000).toFixed(2)} s` : `${Number(ms.toFixed(1))} ms`;
}

export function fmtPct(rate: number | null): string {
  if (rate === null) return 'n/a';
  return `${Number((rate * 100).toFixed(2))}%`;
}

export function fmtNum(n: number | null): string {
  if (n === null) return 'none';
  return Number.isInteger(n) ? String(n) : String(Number(n.toFixed(4)));
}

export function fmtRetry(m: Metrics): string {
  return m.retrySuccessRate === null ? 'n/a (0 retried)' : `${fmtPct(m.retrySuccessRate)} (${m.retriedOps} retried)`;
}

/** The worst recovery over all windows: a window that did not recover first, then one that was not measured. */
export function worstRecovery(windows: RecoveryWindow[]): string {
  if (windows.length === 0) return 'n/a (no fault window)';
  const stuck = windows.find((w) => w.status === 'not-recovered' || w.status === 'never-removed');
  if (stuck) return `not recovered (${stuck.fault})`;
  const unmeasured = windows.find((w) => !w.recovered);
  if (unmeasured) return `n/a (${unmeasured.fault}: ${unmeasured.note})`;
  return fmtMs(Math.max(...windows.map((w) => w.recoveryMs ?? 0)));
}

/** One window's recovery cell: the time, "not recovered", or "n/a (why)". */
export function fmtWindowRecovery(w: RecoveryWindow): string {
  if (w.recovered) return fmtMs(w.recoveryMs);
  if (w.status === 'not-recovered' || w.status === 'never-removed')
    return `not recovered${w.note ? ` (${w.note})` : ''}`;
  return `n/a (${w.note})`;
}

/** "expected duplicate_effects == 0, actual 3" */
export function describeThreshold(t: ThresholdResult): string {
  const none = t.na ? 'n/a' : 'none';
  const actual = t.actual === null ? `${none}${t.reason ? ` (${t.reason})` : ''}` : fmtNum(t.actual);
  return `expected ${t.metric} ${t.op} ${bound(t)}${t.allowNa ? ' or n/a' : ''}, actual ${actual}`;
}

/** "duplicate_effects 24 > 0": a threshold with its actual value in the middle. */
export function fmtThresholdActual(t: ThresholdResult): string {
  const actual = t.actual === null ? (t.na ? 'n/a' : 'none') : fmtNum(t.actual);
  return `${t.metric} ${actual} ${t.op} ${bound(t)}${t.allowNa ? ' or n/a' : ''}`;
}

/**
 * What the value was judged against: "1500 (+120 ms calibration margin)", or for a relative threshold
 * "3 x control (control 40 → bound 120)" (n/a when the control measured nothing).
 */
function bound(t: ThresholdResult): string {
  if (!t.relative) return `${fmtNum(t.target)}${margin(t)}`;
  const { factor, control, bound } = t.relative;
  const judged =
    control === null || bound === null
      ? 'control n/a: no bound'
      : `control ${fmtNum(control)} → bound ${fmtNum(bound)}`;
  return `${fmtNum(factor)} x control (${judged})${margin(t)}`;
}

/**
 * " (inconclusive: within the machine's measured delay of 120 ms)" on a missed time bound that load explains, or
 * " (more than the machine's measured delay of 120 ms)" on one it does not (a relative lower bound names factor x the
 * control's delay).
 */
function margin(t: ThresholdResult): string {
  if (t.marginMs === undefined) return '';
  const delay = isTimeUpperBound(t)
    ? `the machine's measured delay of ${fmtNum(t.marginMs)} ms`
    : `${fmtNum(t.target)} x the control's machine delay (${fmtNum(t.marginMs)} ms)`;
  return t.status === 'inconclusive' ? ` (inconclusive: within ${delay})` : ` (more than ${delay})`;
}

/**
 * "calibration p95 3.1 ms, probe 20/s: 19.8/s p95 4.2 ms" (with "margin +300 ms" when there was one) for a profile
 * header; undefined without one.
 */
export function fmtCalibration(p: ProfileReport): string | undefined {
  const c = p.calibration;
  if (!c) return undefined;
  if (c.p95Ms === undefined) return 'calibration n/a';
  const margin = c.marginMs > 0 ? `, margin +${fmtMs(c.marginMs)}` : '';
  return `calibration p95 ${fmtMs(c.p95Ms)}${margin}${c.probe ? `, ${fmtProbe(c.probe)}` : ''}${fmtRunLoad(c.duringRun)}`;
}

/** ", loop stalls up to 12 ms (CPU wait 3%) / 9 ms (harness / server)" for what the run's event loops went through. */
function fmtRunLoad(load: Calibration['duringRun']): string {
  if (!load) return '';
  const stalls = [load.harness, load.server].map((lag) =>
    lag
      ? `${fmtMs(lag.maxMs)}${lag.cpuWaitShare === undefined ? '' : ` (CPU wait ${Math.round(lag.cpuWaitShare * 100)}%)`}`
      : 'n/a',
  );
  return `, loop stalls up to ${stalls.join(' / ')} (harness / server)`;
}

/** "probe 20/s: 19.8/s p95 4.2 ms" (open model) or "probe x4: 310/s p95 9 ms" (closed model). */
function fmtProbe(probe: NonNullable<Calibration['probe']>): string {
  const offered = probe.model === 'open' ? `${fmtNum(probe.intendedRate ?? 0)}/s` : `x${probe.concurrency}`;
  if (probe.unavailable !== undefined) return `probe ${offered} n/a`;
  if (probe.skipped !== undefined) return `probe ${offered} not needed`;
  const achieved = probe.achievedRate === undefined ? '' : ` ${fmtNum(probe.achievedRate)}/s`;
  const p95 = probe.p95Ms === undefined ? '' : ` p95 ${fmtMs(probe.p95Ms)}`;
  return `probe ${offered}:${achieved}${p95}`;
}

/**
 * What a negative control showed (report/detector.ts), or undefined for a normal or interrupted run: "detector
 * fired: duplicate_effects 24 > 0" when it saw the harm, "detector did not fire: expected duplicate_effects > 0,
 * actual 0" when it stayed silent.
 */
/** A faults-off control's reading of a profile, e.g. "faults-off control: its faults matter (2 of 6 thresholds failed)". */
export function faultsOffPhrase(
  p: Pick<ProfileReport, 'faultsOff' | 'verdict' | 'error' | 'thresholds'>,
): string | undefined {
  if (!p.faultsOff) return undefined;
  const failed = p.thresholds.filter((t) => !t.ok);
  if (faultsMatter(p))
    return `faults-off control: its faults matter (${failed.length} of ${p.thresholds.length} thresholds failed without them)`;
  if (p.verdict === 'pass')
    return 'faults-off control: DEFECT, every threshold held without its faults (they prove nothing)';
  return `faults-off control: not judged (${p.verdict}${p.error ? ', error' : ''})`;
}

export function controlPhrase(p: Pick<ProfileReport, 'control' | 'thresholds' | 'verdict'>): string | undefined {
  if (!isDetectorRun(p) || p.verdict === 'interrupted') return undefined;
  const shown = detectorThresholds(p);
  const silent = shown.filter((t) => !t.ok);
  if (silent.length > 0) return `detector did not fire: ${silent.map(describeThreshold).join('; ')}`;
  if (shown.length === 0) return 'control with no thresholds: nothing shows that it fired';
  return `detector fired: ${shown.map(fmtThresholdActual).join(', ')}`;
}

/**
 * The circuit breaker in one phrase, e.g. "opened 1× (0.8 s → 2.1 s), 28 ops failed fast"; undefined when it
 * never acted. Times are shifted by `offsetMs` (to the workload's start).
 */
export function fmtBreaker(m: Metrics, offsetMs = 0): string | undefined {
  const intervals = m.breakerOpenIntervals ?? [];
  if (intervals.length === 0 && !m.breakerRejections) return undefined;
  const at = (ms: number) => fmtMs(ms - offsetMs);
  const when = intervals
    .map((i) => `${at(i.openAtMs)} → ${i.closeAtMs === null ? 'still open' : at(i.closeAtMs)}`)
    .join(', ');
  return `opened ${intervals.length}×${when ? ` (${when})` : ''}, ${m.breakerRejections ?? 0} ops failed fast`;
}

/** An interrupted run's line: what it measured before the stop, as information (its thresholds were not judged). */
export function interruptedText(p: Pick<ProfileReport, 'metrics' | 'verdictReason'>): string {
  const m = p.metrics;
  return `${p.verdictReason ?? 'the run was stopped'}; measured so far: ${m.ops} ops (${m.opsOk} ok, ${m.opsFail} fail, ${m.opsInfo} info), thresholds not judged`;
}
