// Turns a History plus a profile's expectations into a ProfileReport, and profiles into a RunReport.
import { resolve } from 'node:path';
import type { History } from '../core/history.ts';
import { packageVersion } from '../core/package-root.ts';
import { type Calibration, machineDelayMs } from './calibration.ts';
import { inertWindows } from './fault-windows.ts';
import type { MetricFeed } from './feed.ts';
import { METRICS } from './metric-table.ts';
import { computeMetrics } from './metrics.ts';
import type { MetricsOptions } from './options.ts';
import type { ProfileReport, RunReport, Verdict } from './run-report.ts';
import { evaluateThresholds, parseThreshold, type ThresholdResult } from './thresholds.ts';
import type { Metrics } from './types.ts';

export interface ProfileInput {
  name: string;
  description?: string;
  file?: string;
  /** SHA-256 of the profile file's text. */
  profileSha256?: string;
  seed: number;
  policy: string;
  history: History;
  /** The metric accumulators the Recorder fed during the run (without: the history is replayed). */
  feed?: MetricFeed;
  /** The profile's `expect` thresholds. */
  expect: readonly string[];
  decisionLogSha256: string;
  metricsOptions?: MetricsOptions;
  error?: string;
  notes?: string[];
  /** The start-up calibration with the load watched during the run: how much a missed time bound load explains. */
  calibration?: Calibration;
  /** The run was stopped before the profile finished. */
  interrupted?: boolean;
  /** Why the server did not settle before the ledger was read (the drain limit passed): the verdict is fail. */
  unsettled?: string;
  /** How long the drain before reading the ledger took, ms. */
  drainMs?: number;
  /**
   * The faults-off control's metrics, measured right before: relative thresholds (`x control`) are bound by them.
   * 'self': the run had no faults, so it is its own control.
   */
  control?: Metrics | 'self';
  /** The control's machine delay, ms (run/faults-off.ts): what load may have added to a relative lower bound, per unit of its factor. */
  controlDelayMs?: number;
}

/**
 * Thresholds every profile gets unless its `expect` has its own on that metric (which then decides): an effect
 * that no op claims, by trace id or by argsKey, means the effect counts cannot be trusted.
 */
const IMPLICIT_THRESHOLDS: readonly string[] = ['unattributed_effects == 0 or n/a'];

function withImplicit(expect: readonly string[]): { expr: string; implicit: boolean }[] {
  const named = new Set(expect.map((e) => parseThreshold(e).metric));
  return [
    ...expect.map((expr) => ({ expr, implicit: false })),
    ...IMPLICIT_THRESHOLDS.filter((e) => !named.has(parseThreshold(e).metric)).map((expr) => ({
      expr,
      implicit: true,
    })),
  ];
}

export function buildProfileReport(input: ProfileInput): ProfileReport {
  const metrics = computeMetrics(input.history, input.metricsOptions, input.feed);
  const all = withImplicit(input.expect);
  const thresholds = evaluateThresholds(
    all.map((t) => t.expr),
    metrics,
    machineDelayMs(input.calibration),
    input.control === 'self' ? metrics : input.control,
    input.controlDelayMs,
  ).map((t, i) => (all[i].implicit ? { ...t, implicit: true } : t));
  return {
    name: input.name,
    ...(input.description ? { description: input.description } : {}),
    ...(input.file ? { file: resolve(input.file) } : {}),
    ...(input.profileSha256 ? { profileSha256: input.profileSha256 } : {}),
    seed: input.seed,
    policy: input.policy,
    ...judge(input, thresholds, metrics),
    metrics,
    thresholds,
    ...(input.calibration && { calibration: input.calibration }),
    decisionLogSha256: input.decisionLogSha256,
    decisions: input.history.decisions.length,
    startedAt: new Date(input.history.startMs).toISOString(),
    durationMs: Math.round(input.history.endMs - input.history.startMs),
    ...(input.drainMs !== undefined ? { drainMs: input.drainMs } : {}),
    notes: [
      ...(input.notes ?? []),
      ...loadNotes(input.calibration),
      ...notesFor(metrics, thresholds, input.metricsOptions),
    ],
    ...(input.error ? { error: input.error } : {}),
  };
}

/**
 * The verdict and, unless it is pass or a plain threshold fail, its reason. Each threshold was judged on its own
 * (measure/thresholds.ts); the profile fails if any failed, and is inconclusive only when its sole non-passing
 * thresholds are time bounds the machine's measured delay explains.
 */
function judge(
  input: ProfileInput,
  thresholds: readonly ThresholdResult[],
  metrics: Metrics,
): { verdict: Verdict; verdictReason?: string } {
  if (input.interrupted)
    return { verdict: 'interrupted', verdictReason: 'the run was stopped before this profile ended' };
  if (input.error) return { verdict: 'fail' };
  const unmeasurable = thresholds.filter((t) => !t.ok && METRICS[t.metric]?.get(metrics).unmeasurable);
  if (unmeasurable.length > 0) {
    return {
      verdict: 'fail',
      verdictReason: `${unmeasurable.map((t) => `"${t.expr}"`).join(', ')} cannot be measured on this target, whatever the machine's load`,
    };
  }
  if (input.unsettled) return { verdict: 'fail', verdictReason: input.unsettled };
  const inert = inertWindows(metrics.faultWindows);
  // An inert fault is the root cause to report first: thresholds measured without the fault prove nothing.
  if (inert.length > 0) {
    return {
      verdict: 'inert',
      verdictReason: `fault window${inert.length > 1 ? 's' : ''} ${inert.map((w) => w.fault).join(', ')} hit nothing`,
    };
  }
  if (thresholds.some((t) => t.status === 'fail' || t.status === 'na-fail')) return { verdict: 'fail' };
  const inconclusive = thresholds.filter((t) => t.status === 'inconclusive');
  if (inconclusive.length > 0) return { verdict: 'inconclusive', verdictReason: inconclusiveReason(inconclusive) };
  return { verdict: 'pass' };
}

/** "latency_p99_ms <= 300" at 412 ms: over its bound by 112 ms, within the machine's measured delay of 488 ms */
function inconclusiveReason(thresholds: readonly ThresholdResult[]): string {
  return thresholds.map((t) => `"${t.expr}" at ${t.actual} ms: ${t.reason}`).join('; ');
}

const SEVERITY: readonly Verdict[] = ['interrupted', 'fail', 'inert', 'inconclusive', 'pass'];

/** The most serious of several verdicts (a run's verdict from its profiles'). */
export function worstVerdict(verdicts: readonly Verdict[]): Verdict {
  return SEVERITY.find((v) => verdicts.includes(v)) ?? 'pass';
}

export interface RunInput {
  seed: number;
  startedAt: string | Date;
  durationMs: number;
  profiles: ProfileReport[];
  faultline?: string;
}

export function buildRunReport(input: RunInput): RunReport {
  return {
    schemaVersion: 2,
    faultline: input.faultline ?? packageVersion(),
    seed: input.seed,
    startedAt: typeof input.startedAt === 'string' ? input.startedAt : input.startedAt.toISOString(),
    durationMs: Math.round(input.durationMs),
    verdict: worstVerdict(input.profiles.map((p) => p.verdict)),
    profiles: input.profiles,
  };
}

/** The machine's load, said beside the verdict: it never decides one (only a time bound's own result can). */
function loadNotes(calibration: Calibration | undefined): string[] {
  return calibration?.tooLoaded
    ? [
        `machine load: ${calibration.tooLoaded} (counts are judged as measured; a missed time bound within the machine's delay is inconclusive)`,
      ]
    : [];
}

/** Notes that keep a reader from over-trusting a number. */
export function notesFor(m: Metrics, thresholds: readonly ThresholdResult[], options?: MetricsOptions): string[] {
  const notes: string[] = [];
  if (thresholds.every((t) => t.implicit)) notes.push('no thresholds: the verdict passes by default');
  if (m.ops === 0) notes.push('no ops ran');
  if (m.retriedOps === 0 && m.ops > 0) notes.push('retry_success_rate is n/a: no op had a failed attempt');
  if ((m.unattributedEffects ?? 0) > 0) {
    notes.push(`${m.unattributedEffects} ledger effect(s) matched no op by trace id or argsKey`);
  }
  for (const w of m.recovery) if (!w.recovered) notes.push(`recovery of fault window ${w.fault}: ${w.note}`);
  if (Object.keys(options?.canaries ?? {}).length === 0) notes.push('no canaries given: the leak scan did not run');
  return notes;
}
