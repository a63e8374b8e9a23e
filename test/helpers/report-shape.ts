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

/** The part of report.json's metrics the n/a rule reads. */
interface NaSources {
  ops: number;
  retriedOps: number;
  retrySuccessRate: number | null;
  errorRate: number | null;
  attemptsPerOp: { mean: number | null; max: number | null };
  latencyMs: { count: number; p50: number | null; p99: number | null; max: number | null };
  attemptLatencyMs: { count: number; p50: number | null; p99: number | null; max: number | null };
  effectsObservable: boolean;
  duplicateEffects: number | null;
  ghostEffects: number | null;
  lostEffects: number | null;
  unattributedEffects: number | null;
  leaks: number | null;
  leaksByKind: Record<string, number>;
  mistakeOpsJudged?: number;
  selfCorrectionRate?: number | null;
}

/**
 * Where a metric in report.json breaks the n/a rule: each ratio or effect count must be null exactly when its
 * denominator or source is absent (no op, no retried op, nothing timed, effects not observable, no canary, no
 * mistaken call judged), and a number otherwise. Returns one line per break; none when the rule holds.
 */
export function naViolations(m: NaSources): string[] {
  const rules: [string, unknown, boolean][] = [
    ['retrySuccessRate', m.retrySuccessRate, m.retriedOps === 0],
    ['errorRate', m.errorRate, m.ops === 0],
    ['attemptsPerOp.mean', m.attemptsPerOp.mean, m.ops === 0],
    ['attemptsPerOp.max', m.attemptsPerOp.max, m.ops === 0],
    ...(['latencyMs', 'attemptLatencyMs'] as const).flatMap((k) =>
      (['p50', 'p99', 'max'] as const).map((p): [string, unknown, boolean] => [`${k}.${p}`, m[k][p], m[k].count === 0]),
    ),
    ...(['duplicateEffects', 'ghostEffects', 'lostEffects', 'unattributedEffects'] as const).map(
      (k): [string, unknown, boolean] => [k, m[k], !m.effectsObservable],
    ),
    ['leaks', m.leaks, Object.keys(m.leaksByKind).length === 0],
    ...(m.selfCorrectionRate === undefined
      ? []
      : [['selfCorrectionRate', m.selfCorrectionRate, !m.mistakeOpsJudged] as [string, unknown, boolean]]),
  ];
  return rules.flatMap(([name, value, absent]) =>
    absent === (value === null) && (value === null || typeof value === 'number')
      ? []
      : [`${name} is ${JSON.stringify(value)} but its source is ${absent ? 'absent' : 'present'}`],
  );
}
