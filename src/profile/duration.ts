// Durations in profiles: a number of milliseconds, or a string such as "250ms", "2s", "1.5m"; at most 24 h, since
// a longer wait is a typo, and Node turns a timer past 2^31-1 ms (about 24.8 days) into 1 ms.
import { z } from 'zod';

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000 };

/** The longest duration any profile field may name: 24 h. */
export const MAX_DURATION_MS = 24 * 60 * 60 * 1000;

const TOO_LONG = `expected a duration of at most 24 h (${MAX_DURATION_MS} ms)`;

export const durationSchema = z
  .union([
    z.number().nonnegative().max(MAX_DURATION_MS, TOO_LONG),
    z.string().regex(/^\d+(\.\d+)?(ms|s|m)$/, 'expected a duration such as 500, "500ms", "2s" or "1m"'),
  ])
  .transform((v) => (typeof v === 'number' ? v : parseDuration(v)))
  .refine((ms) => ms <= MAX_DURATION_MS, TOO_LONG);

/** A duration that must not be zero (how long the workload runs). */
export const positiveDurationSchema = durationSchema.refine((ms) => ms > 0, 'expected a duration above 0');

function parseDuration(text: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m)$/.exec(text);
  if (!match) throw new Error(`not a duration: ${text}`);
  return Math.round(Number(match[1]) * UNITS[match[2]]);
}
