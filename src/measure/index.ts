// Public surface of src/measure.

export { METRIC_NAMES, METRICS, type MetricDef, type MetricValue } from './metric-table.ts';
export { computeMetrics } from './metrics.ts';
export { RECOVERY_DEFAULTS } from './recovery.ts';
export {
  evaluateThresholds,
  OPERATORS,
  type Operator,
  parseThreshold,
  type Threshold,
  ThresholdError,
  type ThresholdResult,
} from './thresholds.ts';
export type * from './types.ts';
