// k6-style thresholds: `<metric> <op> <number>`, e.g. `duplicate_effects == 0`, `latency_p99_ms < 1500`.
// A metric with nothing to measure is n/a and fails its thresholds, unless one ends in `or n/a`.
//
// Each threshold is judged on its own: pass, fail, na-fail, or inconclusive. Only a time bound that load can have
// pushed (an upper bound, or a lower bound relative to the control) can be inconclusive, and only when it was missed
// by no more than the machine's measured delay: load only inflates times, so a held upper time bound passes, and a
// count, a rate of counts, a fixed lower bound or an n/a fails whatever the machine did (docs/calibration.md).
//
// A time bound may be relative to the same run's faults-off control: `latency_p99_ms <= 3 x control` holds when the
// value is at most 3 times what the profile measured with its faults removed (run/faults-off.ts). The control ran a
// moment before, but the machine can be busier during either: a relative upper bound is judged as a fixed bound of
// factor x control, with the run's machine delay; a relative lower bound (`>= 3 x control`), which load during the
// control raises, is inconclusive when missed by no more than factor x the control's machine delay.
import { didYouMean } from '../core/did-you-mean.ts';
import { METRIC_NAMES, METRICS } from './metric-table.ts';
import type { Metrics } from './types.ts';

export const OPERATORS = ['<', '<=', '==', '!=', '>=', '>'] as const;
export type Operator = (typeof OPERATORS)[number];

export interface Threshold {
  expr: string;
  metric: string;
  op: Operator;
  target: number;
  /** `... or n/a`: the threshold also holds when the metric has nothing to measure. */
  allowNa?: boolean;
  /** `<factor> x control`: the bound is target (the factor) times the faults-off control's value of the metric. */
  relative?: true;
}

/** A relative threshold's bound, from the faults-off control measured beside the run. */
interface ControlBound {
  factor: number;
  /** The control's value of the metric; null when the control measured nothing (the threshold then fails). */
  control: number | null;
  /** factor x control; null without a control value. */
  bound: number | null;
}

/** pass; fail; na-fail (nothing to measure, and the threshold does not allow n/a); inconclusive (see above). */
export type ThresholdStatus = 'pass' | 'fail' | 'na-fail' | 'inconclusive';

export interface ThresholdResult {
  expr: string;
  metric: string;
  op: Operator;
  target: number;
  /** The metric's value; null when it has none (e.g. a fault window that never recovered). */
  actual: number | null;
  /** status === 'pass'. */
  ok: boolean;
  status: ThresholdStatus;
  /** Why it failed without a value, or why it is inconclusive. */
  reason?: string;
  /** The metric had nothing to measure (actual is null). */
  na?: boolean;
  allowNa?: boolean;
  /** Not in the profile's `expect`: a threshold every profile gets (measure/verdict.ts). */
  implicit?: boolean;
  /**
   * A missed time bound load can explain (loadCanMiss): the machine's measured delay (ms) it was compared with; for a
   * relative lower bound, factor x the control's.
   */
  marginMs?: number;
  /** A relative threshold (`<factor> x control`): target is the factor; this is the control's value and the bound. */
  relative?: ControlBound;
}

export class ThresholdError extends Error {
  constructor(
    message: string,
    readonly expr: string,
  ) {
    super(message);
    this.name = 'ThresholdError';
  }
}

const SHAPE = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(<=|>=|==|!=|<|>)\s*(\S+?)(\s+or\s+n\/a)?\s*$/;
/** `<metric> <op> <factor> x control`: the number before ` x control` is a factor, not a bound. */
const RELATIVE = /^(.*?)\s*[x×]\s*control(\s+or\s+n\/a)?\s*$/;
const RELATIVE_FORM = '"<time metric> <op> <factor> x control", e.g. `latency_p99_ms <= 3 x control`';
const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const EXAMPLE = 'e.g. `duplicate_effects == 0` or `latency_p99_ms < 1500`';

export function parseThreshold(expr: string): Threshold {
  const relative = RELATIVE.exec(expr);
  if (relative) return parseRelative(expr, relative[1], relative[2] !== undefined);
  if (/\bcontrol/.test(expr)) throw new ThresholdError(`invalid threshold "${expr}": expected ${RELATIVE_FORM}`, expr);
  return parseAbsolute(expr);
}

/** `text` is the whole expression, or a relative one's part before ` x control` (messages quote `expr`). */
function parseAbsolute(expr: string, text = expr): Threshold {
  const match = SHAPE.exec(text);
  if (!match) {
    throw new ThresholdError(
      `invalid threshold "${expr}": expected "<metric> <operator> <number> [or n/a]" (${EXAMPLE}); ` +
        `operators: ${OPERATORS.join(' ')}`,
      expr,
    );
  }
  const [, metric, op, number, orNa] = match;
  if (!(metric in METRICS)) {
    throw new ThresholdError(
      `unknown metric "${metric}" in threshold "${expr}"${didYouMean(metric, METRIC_NAMES)}; ` +
        `known metrics: ${METRIC_NAMES.join(', ')}`,
      expr,
    );
  }
  if (!NUMBER.test(number)) {
    throw new ThresholdError(`invalid threshold "${expr}": expected a number after "${op}", got "${number}"`, expr);
  }
  return { expr: expr.trim(), metric, op: op as Operator, target: Number(number), ...(orNa ? { allowNa: true } : {}) };
}

/** `latency_p99_ms <= 3 x control`: only a time metric, only an ordering, a positive factor, never `or n/a`. */
function parseRelative(expr: string, head: string, orNa: boolean): Threshold {
  const invalid = (why: string) => new ThresholdError(`invalid threshold "${expr}": ${why}`, expr);
  if (orNa)
    throw invalid('a bound relative to the control cannot end in "or n/a" (a control that measured nothing fails it)');
  const t = parseAbsolute(expr, head);
  const unit = METRICS[t.metric].unit ?? 'count';
  if (unit !== 'ms')
    throw invalid(`only a time metric (ms) can be bound relative to the control; ${t.metric} is in ${unit}`);
  if (t.op === '==' || t.op === '!=')
    throw invalid(`expected <, <=, >= or > before a factor of the control, got "${t.op}"`);
  if (!(t.target > 0) || !Number.isFinite(t.target))
    throw invalid(`expected a positive factor before "x control", got "${t.target}"`);
  return { ...t, expr: expr.trim(), relative: true };
}

export function compare(actual: number, op: Operator, target: number): boolean {
  switch (op) {
    case '<':
      return actual < target;
    case '<=':
      return actual <= target;
    case '==':
      return actual === target;
    case '!=':
      return actual !== target;
    case '>=':
      return actual >= target;
    case '>':
      return actual > target;
  }
}

/** Upper bounds on a time: thresholds that load can push over. */
export function isTimeUpperBound(t: { op: Operator; metric: string }): boolean {
  return METRICS[t.metric]?.unit === 'ms' && (t.op === '<' || t.op === '<=');
}

/**
 * The thresholds load can make miss, and so the only ones that may be inconclusive: a time upper bound, and a bound
 * relative to the faults-off control (only a time can be), whose lower form load during the control raises.
 */
export function loadCanMiss(t: { op: Operator; metric: string; relative?: unknown }): boolean {
  return isTimeUpperBound(t) || t.relative !== undefined;
}

/**
 * Throws ThresholdError on the first invalid expression: validate profiles with parseThreshold first.
 * `machineDelayMs` (measure/calibration.ts: how much slower than a quiet machine this one ran) decides whether a
 * missed time upper bound is inconclusive (missed by at most that much) or fails. `control` is the faults-off
 * control's metrics, for relative thresholds (without it they fail: no control ran), and `controlDelayMs` the
 * control's own machine delay, which excuses a relative lower bound missed by at most factor x it.
 */
export function evaluateThresholds(
  exprs: readonly string[],
  metrics: Metrics,
  machineDelayMs = 0,
  control?: Metrics,
  controlDelayMs = 0,
): ThresholdResult[] {
  return exprs.map((expr): ThresholdResult => {
    const { relative, ...t } = parseThreshold(expr);
    // What load can explain of a miss: the run's delay for an upper time bound; for a relative lower bound the
    // control's, which raised the bound factor times over; nothing for any other bound.
    const loadMs = isTimeUpperBound(t) ? machineDelayMs : relative ? t.target * controlDelayMs : 0;
    if (relative) return evaluateRelative(t, metrics, control, loadMs);
    const { value, reason, na } = METRICS[t.metric].get(metrics);
    const base = { ...t, actual: value, ...(na ? { na } : {}) };
    if (value === null) {
      const ok = na === true && t.allowNa === true;
      return { ...base, ok, status: ok ? 'pass' : 'na-fail', ...(reason ? { reason } : {}) };
    }
    return judge(base, value, t.target, loadMs);
  });
}

/**
 * A measured value against its bound: pass; or, missed, inconclusive when load can explain the miss (by no more than
 * `loadMs`, what the machine's measured delay could have moved the value or the bound), else fail.
 */
function judge(
  base: Omit<ThresholdResult, 'ok' | 'status'>,
  value: number,
  bound: number,
  loadMs: number,
): ThresholdResult {
  if (compare(value, base.op, bound)) return { ...base, ok: true, status: 'pass' };
  if (loadMs <= 0) return { ...base, ok: false, status: 'fail' };
  const missedBy = Math.abs(value - bound);
  const delay = Math.round(loadMs);
  const within = missedBy <= loadMs;
  const upper = isTimeUpperBound(base);
  const explained = upper
    ? `the machine's measured delay of ${delay} ms`
    : `${base.target} x the faults-off control's machine delay (${delay} ms)`;
  return {
    ...base,
    ok: false,
    status: within ? 'inconclusive' : 'fail',
    marginMs: delay,
    reason: `${upper ? 'over' : 'under'} its bound by ${round(missedBy)} ms, ${within ? 'within' : 'more than'} ${explained}`,
  };
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}

/**
 * A relative bound is factor x the control's value, judged as a fixed bound of that value, a miss within `loadMs`
 * inconclusive. A control that measured nothing fails it (n/a, and never excused: there is no bound to hold).
 */
function evaluateRelative(
  t: Omit<Threshold, 'relative'>,
  metrics: Metrics,
  control: Metrics | undefined,
  loadMs: number,
): ThresholdResult {
  const def = METRICS[t.metric];
  const { value, reason, na } = def.get(metrics);
  const measured = control ? def.get(control) : undefined;
  const controlValue = measured?.value ?? null;
  const bound = controlValue === null ? null : t.target * controlValue;
  const relative: ControlBound = { factor: t.target, control: controlValue, bound };
  const base = { ...t, actual: value, relative };
  if (bound === null) {
    const why = measured
      ? `the faults-off control measured nothing (${measured.reason ?? 'no value'})`
      : 'no faults-off control ran';
    return { ...base, ok: false, status: 'na-fail', na: true, reason: why };
  }
  if (value === null)
    return { ...base, ok: false, status: 'na-fail', ...(reason ? { reason } : {}), ...(na ? { na } : {}) };
  return judge(base, value, bound, loadMs);
}
