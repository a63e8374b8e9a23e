// The metric keys DESIGN.md documents for report.json: one list for every test that checks the shape.
export const DOCUMENTED_METRIC_KEYS = [
  'ops',
  'opsOk',
  'opsFail',
  'opsInfo',
  'attempts',
  'retrySuccessRate',
  'duplicateEffects',
  'ghostEffects',
  'lostEffects',
  'leaks',
  'recovery',
  'latencyMs',
  'errorsByCategory',
] as const;
