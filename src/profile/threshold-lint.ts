// Thresholds that cannot fail on their profile: a bound looser than the schedule allows, a cap the policy already
// enforces, a count the policy cannot produce, a comparison every value satisfies. `faultline validate` warns about
// each, because a green verdict on such a threshold proves nothing.
import type { MetricUnit } from '../measure/metric-table.ts';
import { METRICS } from '../measure/metric-table.ts';
import { compare, parseThreshold, type Threshold } from '../measure/thresholds.ts';
import type { Profile } from './schema.ts';
import { buildTimeline } from './timeline.ts';

/** Metrics that only a retrying policy can move off zero (or off one attempt). */
const RETRY_ONLY = new Set(['retry_after_violations', 'auth_blind_retries', 'attempts_per_op_max', 'retried_ops']);

export function thresholdsThatCannotFail(profile: Profile): string[] {
  const warnings: string[] = [];
  const lint = (exprs: readonly string[], policy: string, where: string) => {
    for (const expr of exprs) {
      const why = cannotFail(parseThreshold(expr), profile, policy);
      if (why) warnings.push(`${where}: "${expr}" cannot fail: ${why}`);
    }
  };
  lint(profile.expect, profile.client.policy, 'expect');
  for (const [policy, exprs] of Object.entries(profile.controls)) lint(exprs ?? [], policy, `controls.${policy}`);
  return warnings;
}

function cannotFail(t: Threshold, profile: Profile, policy: string): string | undefined {
  // A relative threshold's target is a factor: its bound is known only once the control has run.
  if (t.relative) return undefined;
  const unit: MetricUnit = METRICS[t.metric].unit ?? 'count';
  const upper = t.op === '<=' || t.op === '<';
  const lower = t.op === '>=' || t.op === '>';
  const allows = (value: number) => (t.op === '<=' ? value <= t.target : t.op === '<' ? value < t.target : false);

  if (lower && (t.op === '>=' ? t.target <= 0 : t.target < 0) && unit !== 'rate') {
    return `${t.metric} is never negative`;
  }
  if (unit === 'rate' && ((lower && allowsBelow(t, 0)) || (upper && allows(1)))) {
    return `${t.metric} is a rate between 0 and 1`;
  }
  if ((t.metric === 'recovery_ms' || t.metric === 'first_success_ms') && upper) {
    // A recovery window starts before the run ends; a first success may end up to one deadline after it.
    const slack = t.metric === 'first_success_ms' ? profile.client.deadlineMs : 0;
    const left = timeLeftAfterFaults(profile, slack);
    if (left !== undefined && allows(left)) {
      return `no value above ${left} ms can be measured after the earliest fault window ends, so only "did not recover" can fail it; bound it below ${left} ms`;
    }
  }
  if (t.metric === 'attempts_per_op_max' && policy === 'none' && compare(1, t.op, t.target)) {
    return 'policy none makes one attempt per op';
  }
  if (t.metric === 'attempts_per_op_max' && upper && allows(profile.client.maxAttempts)) {
    return `the policy already caps attempts at client.maxAttempts (${profile.client.maxAttempts})`;
  }
  if (
    policy === 'none' &&
    RETRY_ONLY.has(t.metric) &&
    t.metric !== 'attempts_per_op_max' &&
    compare(0, t.op, t.target)
  ) {
    return 'policy none never retries';
  }
  return undefined;
}

function allowsBelow(t: Threshold, value: number): boolean {
  return t.op === '>=' ? value >= t.target : value > t.target;
}

/** The longest a recovery can take and still be measured: the run's end (plus slack) minus the earliest removal. */
function timeLeftAfterFaults(profile: Profile, slack: number): number | undefined {
  const offs = buildTimeline(profile.faults, profile.duration)
    .filter((e) => e.action === 'off')
    .map((e) => e.atMs);
  if (offs.length === 0) return undefined;
  return profile.duration + slack - Math.min(...offs);
}
