// k6-style thresholds: `<metric> <op> <number>`, e.g. `duplicate_effects == 0`, `latency_p99_ms < 1500`.
// A metric with nothing to measure is n/a and fails its thresholds, unless one ends in `or n/a`.
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
}

export interface ThresholdResult {
  expr: string;
  metric: string;
  op: Operator;
  target: number;
  /** The metric's value; null when it has none (e.g. a fault window that never recovered). */
  actual: number | null;
  ok: boolean;
  /** Why it failed without a value, when that is the case. */
  reason?: string;
  /** The metric had nothing to measure (actual is null). */
  na?: boolean;
  allowNa?: boolean;
  /** Not in the profile's `expect`: a threshold every profile gets (measure/verdict.ts). */
  implicit?: boolean;
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
const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const EXAMPLE = 'e.g. `duplicate_effects == 0` or `latency_p99_ms < 1500`';

export function parseThreshold(expr: string): Threshold {
  const match = SHAPE.exec(expr);
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

/** Throws ThresholdError on the first invalid expression: validate profiles with parseThreshold first. */
export function evaluateThresholds(exprs: readonly string[], metrics: Metrics): ThresholdResult[] {
  return exprs.map((expr) => {
    const t = parseThreshold(expr);
    const { value, reason, na } = METRICS[t.metric].get(metrics);
    const ok = value === null ? na === true && t.allowNa === true : compare(value, t.op, t.target);
    return { ...t, actual: value, ok, ...(reason ? { reason } : {}), ...(na ? { na } : {}) };
  });
}
