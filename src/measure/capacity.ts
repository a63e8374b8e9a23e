// A capacity review: at each load level a no-fault control run and the faulted run of one profile (same seed,
// same plan), side by side, and the knee: the lowest level where the faulted run breaks away from its control,
// found by one written rule (KneeRule). Pure: it reads the runs' reports.
import { METRICS } from './metric-table.ts';
import type { ProfileReport, Verdict } from './profile-report.ts';
import type { Metrics } from './types.ts';

/** Closed loop: ops in flight (workload.concurrency). Open loop: ops started per second (workload.rate). */
export type CapacityMode = 'concurrency' | 'rate';

/** One run at one level, as the capacity table shows it. Null is n/a: nothing to measure. */
export interface CapacityPoint {
  /** The run's name in report.json's profiles. */
  run: string;
  verdict: Verdict;
  ops: number;
  /** Ops that ended ok per second of workload (first op start to last op end). */
  okOpsPerSec: number;
  /** Op latency in ms; null without ops. Open loop: measured from each op's intended start. */
  p50: number | null;
  p95: number | null;
  p99: number | null;
  /** opsOk / ops; null without ops. */
  successRate: number | null;
  /** Retry amplification: attempts per op (mean); null without ops. */
  attemptsPerOp: number | null;
  /** Effect counts; null where the target gives no way to see effects. */
  duplicates: number | null;
  ghosts: number | null;
  lost: number | null;
}

export interface CapacityLevel {
  level: number;
  control: CapacityPoint;
  faulted: CapacityPoint;
  /** Why the rule says this level breaks away (empty: it does not); null when the rule could not compare (n/a). */
  breaks: string[] | null;
}

/** The knee rule's two limits (`faultline capacity --knee-p99-ratio`, `--knee-success-drop`). */
export interface KneeRule {
  /** The faulted p99 over the control p99 above which latency has broken away. */
  p99Ratio: number;
  /** Percentage points of op success below the control beyond which errors have broken away. */
  successDropPoints: number;
}

export const DEFAULT_KNEE_RULE: KneeRule = { p99Ratio: 2, successDropPoints: 5 };

export interface CapacityReview {
  /** The profile under review. */
  profile: string;
  mode: CapacityMode;
  /** What a level counts: "ops in flight" or "ops/s offered". */
  unit: string;
  rule: KneeRule;
  /** The rule in words, as every report prints it. */
  ruleText: string;
  levels: CapacityLevel[];
  /** The lowest level that breaks away; null when none does (or none could be compared). */
  knee: { level: number; reasons: string[] } | null;
  /** The finding in one line: where the knee is and why, or that none was found among the levels tried. */
  kneeText: string;
  /**
   * Levels whose control was not clean (ops failed, or retried without any fault): the system, or the machine
   * running the harness, was already saturated there, so the faulted run is compared with a degraded baseline.
   */
  notes: string[];
}

const UNIT_OF: Record<CapacityMode, string> = { concurrency: 'ops in flight', rate: 'ops/s offered' };

function describeRule(rule: KneeRule): string {
  return `knee = the lowest level where the faulted p99 is over ${rule.p99Ratio}× the control's p99, or the faulted op success is over ${rule.successDropPoints} points below the control's; a level where either run has no ops is n/a and cannot be the knee`;
}

const nullable = (m: Metrics, metric: string): number | null => METRICS[metric].get(m).value;

export function capacityPoint(report: ProfileReport): CapacityPoint {
  const m = report.metrics;
  const has = m.ops > 0;
  const seconds = m.throughputOpsPerSec > 0 ? m.ops / m.throughputOpsPerSec : 0;
  return {
    run: report.name,
    verdict: report.verdict,
    ops: m.ops,
    okOpsPerSec: seconds > 0 ? Math.round((m.opsOk / seconds) * 100) / 100 : 0,
    p50: has ? m.latencyMs.p50 : null,
    p95: has ? m.latencyMs.p95 : null,
    p99: has ? m.latencyMs.p99 : null,
    successRate: has ? m.opsOk / m.ops : null,
    attemptsPerOp: has && m.attemptsPerOp.mean !== null ? Math.round(m.attemptsPerOp.mean * 1000) / 1000 : null,
    duplicates: nullable(m, 'duplicate_effects'),
    ghosts: nullable(m, 'ghost_effects'),
    lost: nullable(m, 'lost_effects'),
  };
}

/** What the rule finds at one level: the reasons it breaks away, [] when it holds, null when n/a. */
export function breaksAway(control: CapacityPoint, faulted: CapacityPoint, rule: KneeRule): string[] | null {
  if (control.ops === 0 || faulted.ops === 0) return null;
  const reasons: string[] = [];
  const [cp, fp] = [control.p99 ?? 0, faulted.p99 ?? 0];
  // A control p99 of 0 ms (a clock too coarse) makes any faulted latency a break-away only if it is measurable.
  if (cp > 0 ? fp > rule.p99Ratio * cp : fp > 0) {
    reasons.push(`p99 ${fp} ms > ${rule.p99Ratio}× control ${cp} ms`);
  }
  // Rounded so that 5 points is 5, not 5.000000000000004 (float error would move the knee).
  const drop = Math.round(((control.successRate ?? 0) - (faulted.successRate ?? 0)) * 100 * 1e6) / 1e6;
  if (drop > rule.successDropPoints) {
    reasons.push(
      `success ${pct(faulted.successRate)} is ${drop.toFixed(1)} points below control ${pct(control.successRate)}`,
    );
  }
  return reasons;
}

const pct = (r: number | null) => (r === null ? 'n/a' : `${(r * 100).toFixed(1)}%`);

export interface CapacityInput {
  profile: string;
  mode: CapacityMode;
  rule?: KneeRule;
  /** One entry per level, in any order: its control and faulted reports. */
  levels: { level: number; control: ProfileReport; faulted: ProfileReport }[];
}

export function buildCapacityReview(input: CapacityInput): CapacityReview {
  const rule = input.rule ?? DEFAULT_KNEE_RULE;
  const levels = [...input.levels]
    .sort((a, b) => a.level - b.level)
    .map(({ level, control, faulted }) => {
      const c = capacityPoint(control);
      const f = capacityPoint(faulted);
      return { level, control: c, faulted: f, breaks: breaksAway(c, f, rule) };
    });
  const first = levels.find((l) => l.breaks !== null && l.breaks.length > 0);
  const unit = UNIT_OF[input.mode];
  const compared = levels.filter((l) => l.breaks !== null).length;
  const tried = levels.map((l) => l.level).join(', ');
  const kneeText = first
    ? `knee at ${first.level} ${unit}: ${first.breaks!.join('; ')}`
    : compared === 0
      ? `no knee: no level could be compared (every level tried, ${tried}, had a run without ops)`
      : `no knee found at the levels tried (${tried} ${unit}): the faulted runs stayed within the rule${compared < levels.length ? `; ${levels.length - compared} level(s) n/a` : ''}`;
  const notes = levels.flatMap(({ level, control: c }) =>
    c.ops > 0 && (c.successRate! < 1 || c.attemptsPerOp! > 1)
      ? [
          `the control at ${level} was not clean (${pct(c.successRate)} success, ${c.attemptsPerOp} attempts/op with no fault): saturated without faults`,
        ]
      : [],
  );
  return {
    profile: input.profile,
    mode: input.mode,
    unit,
    rule,
    ruleText: describeRule(rule),
    levels,
    knee: first ? { level: first.level, reasons: first.breaks! } : null,
    kneeText,
    notes,
  };
}
