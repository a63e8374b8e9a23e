// The baseline file (`faultline baseline update` writes it, `faultline run --baseline FILE` reads it): per
// profile and policy, the thresholds known to fail and the values of the metrics that have a tolerance.
import { z } from 'zod';
import { METRIC_NAMES } from '../measure/metric-table.ts';

const tolerance = z.strictObject({
  /** Which direction is a regression. */
  worse: z.enum(['higher', 'lower']),
  /** Allowed change in the metric's unit. */
  absolute: z.number().nonnegative().optional(),
  /** Allowed change as a share of the baseline value (0.5 = 50 %). */
  relative: z.number().nonnegative().optional(),
});
export type Tolerance = z.infer<typeof tolerance>;

const tolerances = z.record(z.string(), tolerance);

const profileEntry = z.strictObject({
  name: z.string(),
  policy: z.string(),
  /** Threshold expressions that failed when the baseline was taken: they do not fail a run while they still fail. */
  knownFailures: z.array(z.string()),
  /** Values of the tolerated metrics when the baseline was taken; null = n/a then. */
  metrics: z.record(z.string(), z.number().nullable()),
  /** Overrides of the file's tolerances for this profile. */
  tolerances: tolerances.optional(),
});
export type BaselineProfile = z.infer<typeof profileEntry>;

const baselineFileSchema = z.strictObject({
  baselineVersion: z.literal(1),
  faultline: z.string(),
  /** The run the baseline was taken from. */
  from: z.strictObject({ seed: z.number().int(), startedAt: z.string() }),
  tolerances,
  profiles: z.array(profileEntry),
});
export type BaselineFile = z.infer<typeof baselineFileSchema>;

/**
 * Written into a new baseline; edit them there. Effects and leaks that were 0 must stay 0 (a known-bad count may
 * move by half); rates and times get room for a noisy CI machine.
 */
export const DEFAULT_TOLERANCES: Record<string, Tolerance> = {
  retry_success_rate: { worse: 'lower', absolute: 0.02 },
  error_rate: { worse: 'higher', absolute: 0.05 },
  duplicate_effects: { worse: 'higher', relative: 0.5 },
  ghost_effects: { worse: 'higher', relative: 0.5 },
  lost_effects: { worse: 'higher', relative: 0.5 },
  leaks: { worse: 'higher', relative: 0.5 },
  recovery_ms: { worse: 'higher', relative: 0.5, absolute: 250 },
  latency_p99_ms: { worse: 'higher', relative: 0.5, absolute: 100 },
};

/** Throws `<file>: <path>: <problem>` for a file that is not a baseline. */
export function parseBaseline(text: string, file: string): BaselineFile {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new BaselineError(`${file}: not JSON (expected a baseline written by faultline baseline update)`);
  }
  const parsed = baselineFileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new BaselineError(`${file}: ${issue.path.join('.') || '(document)'}: ${issue.message}`);
  }
  const named: Array<[string, Record<string, unknown> | undefined]> = [
    ['tolerances', parsed.data.tolerances],
    ...parsed.data.profiles.flatMap(
      (p, i): Array<[string, Record<string, unknown> | undefined]> => [
        [`profiles.${i}.tolerances`, p.tolerances],
        [`profiles.${i}.metrics`, p.metrics],
      ],
    ),
  ];
  for (const [path, record] of named) {
    const unknown = Object.keys(record ?? {}).find((name) => !METRIC_NAMES.includes(name));
    if (unknown) {
      throw new BaselineError(
        `${file}: ${path}.${unknown}: unknown metric (expected a threshold metric name, e.g. latency_p99_ms)`,
      );
    }
  }
  return parsed.data;
}

class BaselineError extends Error {
  readonly userFacing = true;
}
