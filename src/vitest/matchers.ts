// The chaos matchers, as plain functions of a profile report (what `expect.extend` registers in index.ts). Every
// failure message names the ops or windows involved and ends with how to replay the run.
import type { ProfileResult } from '../api/run-profile.ts';
import type { ProfileReport } from '../measure/run-report.ts';
import type { FaultWindowReport, RecoveryWindow } from '../measure/types.ts';

/** What the matchers accept: runProfile's result or the report alone (a report.json profile entry). */
export type ReportLike = ProfileResult | ProfileReport;

interface MatcherOutcome {
  pass: boolean;
  message: () => string;
}

/** At most this many op ids per list in a message. */
const MAX_OPS = 10;

function reportOf(received: unknown): ProfileReport {
  const candidate = (received as { report?: unknown })?.report ?? received;
  const report = candidate as ProfileReport | undefined;
  if (!report || typeof report !== 'object' || !report.metrics || !Array.isArray(report.thresholds)) {
    throw new TypeError(
      `expected runProfile's result or a profile report (with metrics and thresholds), got ${describe(received)}`,
    );
  }
  return report;
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (typeof value !== 'object') return `${typeof value} ${JSON.stringify(value)}`;
  return `an object with keys ${Object.keys(value).slice(0, 5).join(', ') || '(none)'}`;
}

/** The op ids, the first MAX_OPS of them. */
function opList(ids: readonly string[]): string {
  const shown = ids.slice(0, MAX_OPS).join(', ');
  return ids.length > MAX_OPS ? `${shown}, … (${ids.length - MAX_OPS} more)` : shown;
}

/** The last lines of every message: which run, and how to run it again with the same faults. */
function replayLines(report: ProfileReport): string {
  const file = report.file ?? '';
  const replay = /\.ya?ml$/i.test(file)
    ? `faultline run ${file} --seed ${report.seed} --policy ${report.policy}`
    : `runProfile(profile, { seed: ${report.seed}, policy: '${report.policy}' })`;
  return `\n  profile ${report.name} (policy ${report.policy}, seed ${report.seed}, verdict ${report.verdict})\n  replay: ${replay}`;
}

function outcome(pass: boolean, report: ProfileReport, ifFailed: string, ifPassed: string): MatcherOutcome {
  return { pass, message: () => `${pass ? ifPassed : ifFailed}${replayLines(report)}` };
}

/** A failed outcome when the target cannot see effects: every effect metric is n/a, so nothing is proven. */
function unobservable(report: ProfileReport, expected: string, naMetrics: string): MatcherOutcome | undefined {
  if (report.metrics.effectsObservable) return undefined;
  const why = `effects are not observable on this target (${naMetrics} n/a)`;
  return outcome(false, report, `expected ${expected}, but ${why}`, '');
}

/** One line per kind of effect that does not reconcile, naming its ops. */
function effectProblems(r: ProfileReport['metrics']['reconciliation']): string[] {
  return [
    r.duplicateOps.length > 0 && `duplicate (more than one effect): ${opList(r.duplicateOps)}`,
    r.ghostOps.length > 0 && `ghost (failed, yet took effect): ${opList(r.ghostOps)}`,
    r.lostOps.length > 0 && `lost (succeeded, no effect): ${opList(r.lostOps)}`,
  ].filter((line): line is string => typeof line === 'string');
}

function toHaveNoDuplicateEffects(received: ReportLike): MatcherOutcome {
  const report = reportOf(received);
  const m = report.metrics;
  const ops = m.reconciliation.duplicateOps;
  return (
    unobservable(report, 'no duplicate effects', 'duplicate_effects is') ??
    outcome(
      m.duplicateEffects === 0,
      report,
      `expected no duplicate effects, but ${ops.length} op(s) took effect more than once (duplicate_effects ${m.duplicateEffects}): ${opList(ops)}`,
      `expected duplicate effects, but every op took effect at most once (${m.reconciliation.effects} effects)`,
    )
  );
}

function toHaveExactlyOnceEffects(received: ReportLike): MatcherOutcome {
  const report = reportOf(received);
  const r = report.metrics.reconciliation;
  const problems = effectProblems(r);
  return (
    unobservable(report, 'exactly-once effects', 'effect metrics are') ??
    outcome(
      problems.length === 0,
      report,
      `expected every op to take effect exactly once as reported, but:\n  ${problems.join('\n  ')}`,
      `expected an effect that was duplicated, ghost or lost, but all ${r.effects} effects reconcile`,
    )
  );
}

function recoveryLine(w: RecoveryWindow): string {
  const name = `${w.fault} (${w.seam}/${w.kind})`;
  if (w.status === 'recovered') return `${name}: recovered in ${w.recoveryMs} ms`;
  return `${name}: ${w.status}${w.note ? ` (${w.note})` : ''}`;
}

function toRecoverWithin(received: ReportLike, ms: number): MatcherOutcome {
  const report = reportOf(received);
  const windows = report.metrics.recovery;
  if (windows.length === 0) {
    return outcome(false, report, `expected recovery within ${ms} ms, but the run had no fault window`, '');
  }
  const late = windows.filter((w) => w.status !== 'recovered' || (w.recoveryMs ?? Number.POSITIVE_INFINITY) > ms);
  const lines = windows.map((w) => `\n  ${late.includes(w) ? '✗' : '✓'} ${recoveryLine(w)}`).join('');
  return outcome(
    late.length === 0,
    report,
    `expected every fault window to recover within ${ms} ms, but ${late.length} of ${windows.length} did not:${lines}`,
    `expected a fault window not to recover within ${ms} ms, but all ${windows.length} did:${lines}`,
  );
}

function toMeetThresholds(received: ReportLike): MatcherOutcome {
  const report = reportOf(received);
  const failed = report.thresholds.filter((t) => !t.ok);
  const lines = report.thresholds
    .map((t) => {
      const value = t.actual === null ? `n/a${t.reason ? `: ${t.reason}` : ''}` : `actual ${t.actual}`;
      return `\n  ${t.ok ? '✓' : '✗'} ${t.expr} (${value})`;
    })
    .join('');
  const ops = effectProblems(report.metrics.reconciliation)
    .map((line) => `\n  ${line}`)
    .join('');
  let why: string | undefined;
  if (report.error) why = `the run failed: ${report.error}`;
  else if (report.thresholds.length === 0) why = 'the profile has no thresholds (its expect: list is empty)';
  else if (failed.length > 0) why = `${failed.length} of ${report.thresholds.length} failed:${lines}${ops}`;
  else if (report.verdict !== 'pass') {
    why = `they held, but the verdict is ${report.verdict}${report.verdictReason ? ` (${report.verdictReason})` : ''}, so they prove nothing:${lines}`;
  }
  return outcome(
    why === undefined,
    report,
    `expected the profile's thresholds to hold, but ${why}`,
    `expected a threshold to fail, but all ${report.thresholds.length} held:${lines}`,
  );
}

function windowName(w: FaultWindowReport): string {
  return `${w.fault} (${w.seam}/${w.kind})`;
}

/** `fault` is a window id (`f0-status`), a kind (`status`) or seam/kind (`dependency/status`). */
function toHaveHit(received: ReportLike, fault: string): MatcherOutcome {
  const report = reportOf(received);
  const windows = report.metrics.faultWindows;
  const matching = windows.filter((w) => w.fault === fault || w.kind === fault || `${w.seam}/${w.kind}` === fault);
  if (matching.length === 0) {
    const known = windows.map(windowName).join(', ') || 'none';
    return outcome(
      false,
      report,
      `expected fault ${fault} to hit, but the run has no such window (windows: ${known})`,
      '',
    );
  }
  const hitsOf = (w: FaultWindowReport) =>
    w.hits === null ? 'hits not counted (its seam cannot count them)' : `${w.hits} hit(s)`;
  const missed = matching.filter((w) => w.hits === null || w.hits === 0);
  const lines = matching.map((w) => `\n  ${missed.includes(w) ? '✗' : '✓'} ${windowName(w)}: ${hitsOf(w)}`).join('');
  return outcome(
    missed.length === 0,
    report,
    `expected fault ${fault} to hit, but ${missed.length} of ${matching.length} window(s) did not:${lines}`,
    `expected fault ${fault} not to hit, but it did:${lines}`,
  );
}

/** Every matcher by name: what index.ts registers with expect.extend. */
export const CHAOS_MATCHERS = {
  toHaveNoDuplicateEffects,
  toHaveExactlyOnceEffects,
  toRecoverWithin,
  toMeetThresholds,
  toHaveHit,
};
