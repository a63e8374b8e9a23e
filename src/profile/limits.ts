// Values the schema lets through but a run cannot honour, rejected at load with the allowed range instead of being
// clamped or ignored later: waits beyond 24 h (Node turns a timer past 2^31-1 ms into 1 ms, the dependency mock
// clamps its sleeps), sizes beyond what a string can hold, rates beyond any link (a toxic attribute's bound is its
// declared unit's), inverted ranges, a backoff that starts above its cap
// (the backoff clamps it), fault stops after the workload ends (the timeline clamps them), a rate that issues no
// op, and thresholds outside their metric's range.

import { MAX_DURATION_MS, MS_KEY } from '../core/duration.ts';
import { type DocPath, excerpt } from '../core/profile-error.ts';
import { TOXIC_ATTRIBUTE_UNITS } from '../faults/network/toxic.ts';
import { METRICS, metricRange } from '../measure/metric-table.ts';
import { parseThreshold, ThresholdError } from '../measure/thresholds.ts';
import type { Generator } from './generators.ts';
import type { Profile } from './schema.ts';

/** Reports a problem; the check goes on to find the rest. */
type Fail = (path: DocPath, problem: string) => void;

/** A field's unit: a toxic attribute's declared one, or what a field's name says (retryAfterS, jitterMs, bytes). */
type Unit = (typeof TOXIC_ATTRIBUTE_UNITS)[string][string] | 's';

/** The largest size (bytes): V8's longest string is about 512 MiB, and each op builds one. */
const MAX_BYTES = 256 * 1024 * 1024;

/** The largest value of each unit, and how to say it. A unit without a bound does not compile. */
export const BOUND_BY_UNIT: Record<Unit, { max: number; beyond: string }> = {
  ms: { max: MAX_DURATION_MS, beyond: 'is longer than 24 h' },
  s: { max: MAX_DURATION_MS / 1000, beyond: 'is longer than 24 h' },
  us: { max: MAX_DURATION_MS * 1000, beyond: 'is longer than 24 h' },
  bytes: { max: MAX_BYTES, beyond: 'is more than 256 MiB' },
  // 1 TB/s is beyond any link, and keeps the bandwidth toxic's slice (rate x 100 bytes) an exact integer.
  'KB/s': { max: 1e9, beyond: 'is faster than 1 TB/s' },
};

/** Fields named in seconds (retryAfterS), in bytes; in milliseconds: MS_KEY. */
const S_KEY = /[a-z]S$/;
const BYTES_KEY = /(^bytes|Bytes)$/;

const unitByName = (key: string): Unit | undefined =>
  MS_KEY.test(key) ? 'ms' : S_KEY.test(key) ? 's' : BYTES_KEY.test(key) ? 'bytes' : undefined;

export function checkLimits(profile: Profile, fail: Fail): void {
  checkSizes(profile, fail);
  checkWorkload(profile, fail);
  checkWindows(profile, fail);
  const { initialMs, maxMs } = profile.client.backoff;
  if (initialMs > maxMs) {
    fail(
      ['client', 'backoff', 'initialMs'],
      `${initialMs} ms is above backoff.maxMs (${maxMs} ms), so every wait would be the cap; expected initialMs <= maxMs`,
    );
  }
  for (const [i, expr] of profile.expect.entries()) checkThresholdRange(expr, ['expect', i], fail);
  for (const [policy, exprs] of Object.entries(profile.controls)) {
    for (const [i, expr] of (exprs ?? []).entries()) checkThresholdRange(expr, ['controls', policy, i], fail);
  }
}

/** Every time and size field of the profile, wherever it sits (client, target, steady state, fault parameters). */
function checkSizes(profile: Profile, fail: Fail): void {
  const walk = (value: unknown, path: DocPath, toxic?: Record<string, Unit>): void => {
    if (Array.isArray(value)) {
      for (const [i, item] of value.entries()) walk(item, [...path, i]);
      return;
    }
    if (value === null || typeof value !== 'object') return;
    for (const [key, child] of Object.entries(value)) {
      if (typeof child !== 'number') {
        if (key !== 'args') walk(child, [...path, key]);
        continue;
      }
      const unit = toxic?.[key] ?? unitByName(key);
      const bound = unit && BOUND_BY_UNIT[unit];
      if (bound && child > bound.max) {
        fail([...path, key], `${child} ${unit} ${bound.beyond}; expected at most ${bound.max} ${unit}`);
      }
    }
  };
  walk({ ...profile, faults: [] }, []);
  for (const [i, fault] of profile.faults.entries()) {
    walk(fault, ['faults', i], fault.seam === 'network' ? TOXIC_ATTRIBUTE_UNITS[fault.kind] : undefined);
  }
}

function checkWorkload(profile: Profile, fail: Fail): void {
  const { rate } = profile.workload;
  if (rate !== undefined) {
    const ops = (rate * profile.duration) / 1000;
    if (ops < 1) {
      fail(
        ['workload', 'rate'],
        `${rate} ops/s over ${profile.duration} ms comes to ${Number(ops.toPrecision(3))} ops; expected at least 1 (raise the rate or the duration)`,
      );
    }
  }
  for (const [i, item] of profile.workload.mix.entries()) {
    for (const [name, gen] of Object.entries(item.args))
      checkGenerator(gen, ['workload', 'mix', i, 'args', name], fail);
  }
}

function checkGenerator(gen: Generator, path: DocPath, fail: Fail): void {
  if (gen === null || typeof gen !== 'object') return;
  if ('int' in gen) {
    const [min, max] = gen.int;
    if (min > max) fail([...path, 'int'], `expected [min, max] with min <= max, got [${min}, ${max}]`);
    return;
  }
  if ('pick' in gen) for (const [i, g] of gen.pick.entries()) checkGenerator(g, [...path, 'pick', i], fail);
  if ('list' in gen) for (const [i, g] of gen.list.entries()) checkGenerator(g, [...path, 'list', i], fail);
  if ('object' in gen) for (const [k, g] of Object.entries(gen.object)) checkGenerator(g, [...path, 'object', k], fail);
}

function checkWindows(profile: Profile, fail: Fail): void {
  for (const [i, fault] of profile.faults.entries()) {
    if (fault.stop !== undefined && fault.stop > profile.duration) {
      fail(
        ['faults', i, 'stop'],
        `${fault.stop} ms is after the workload ends (duration ${profile.duration} ms); expected at most the duration, or no stop`,
      );
    }
  }
}

/** A threshold whose number lies outside its metric's range either never holds or always holds: both are mistakes. */
function checkThresholdRange(expr: string, path: DocPath, fail: Fail): void {
  let threshold: ReturnType<typeof parseThreshold>;
  try {
    threshold = parseThreshold(expr);
  } catch (error) {
    if (error instanceof ThresholdError) return; // reported by checkProfile
    throw error;
  }
  const { metric, target } = threshold;
  if (!Object.hasOwn(METRICS, metric)) {
    fail(path, `unknown metric ${excerpt(metric)}`);
    return;
  }
  if (!Number.isFinite(target)) {
    fail(path, `expected a finite number, got ${excerpt(expr.trim())}`);
    return;
  }
  const [min, max] = metricRange(METRICS[metric]);
  if (target < min || target > max) {
    const range = max === Number.POSITIVE_INFINITY ? `${min} or more` : `from ${min} to ${max}`;
    fail(path, `${metric} takes values ${range}; comparing it with ${target} is always or never true`);
  }
}
