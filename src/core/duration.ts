// Durations in profiles: a number of milliseconds, or a string such as "250ms", "2s", "1.5m"; at most 24 h, since
// a longer wait is a typo, and Node turns a timer past 2^31-1 ms (about 24.8 days) into 1 ms. Every time field
// takes both forms: a field named in milliseconds (`attemptTimeoutMs`, `jitterMs`, `ms`) through withDurations,
// a Toxiproxy attribute documented in ms through acceptDuration.
import { z } from 'zod';

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000 };
const DURATION_TEXT = /^(\d+(?:\.\d+)?)(ms|s|m)$/;

/** Fields named in milliseconds: attemptTimeoutMs, jitterMs, ms. */
export const MS_KEY = /(^ms|Ms)$/;

/** The longest duration any profile field may name: 24 h. */
export const MAX_DURATION_MS = 24 * 60 * 60 * 1000;

const TOO_LONG = `expected a duration of at most 24 h (${MAX_DURATION_MS} ms)`;
export const DURATION_HINT = 'expected a duration such as 500, "500ms", "2s" or "1m"';
/** The pattern the JSON Schema gives the string form, for editors. */
export const DURATION_PATTERN = '^\\d+(\\.\\d+)?(ms|s|m)$';

/** The step before a duration field's own check: text becomes milliseconds, anything else passes as it is. */
function textToMs(value: unknown, ctx: z.RefinementCtx): unknown {
  if (typeof value !== 'string') return value;
  const parsed = parseDuration(value);
  if (parsed === undefined) ctx.addIssue({ code: 'custom', message: DURATION_HINT, input: value });
  else if (parsed > MAX_DURATION_MS) ctx.addIssue({ code: 'custom', message: TOO_LONG, input: value });
  else return parsed;
  return z.NEVER;
}

/** Whether a schema takes the string form too (the JSON Schema export shows both forms for it). */
export function isDuration(schema: z.core.$ZodType): boolean {
  const def = schema._zod.def as { type: string; in?: z.core.$ZodType };
  return def.type === 'pipe' && (def.in?._zod.def as { transform?: unknown } | undefined)?.transform === textToMs;
}

/** `ms` as the schema types see it, its input widened to the duration text (its optionality kept). */
export type AcceptsDuration<T extends z.ZodType> = Omit<T, '_zod'> & {
  _zod: Omit<T['_zod'], 'input'> & { input: z.input<T> | string };
};

/**
 * A milliseconds field that also takes "500ms", "2s", "1m": the text becomes milliseconds before `ms` checks it,
 * so its own bounds, default and description hold for both forms.
 */
export function acceptDuration<T extends z.ZodType>(ms: T): AcceptsDuration<T> {
  const piped = z.preprocess(textToMs, ms);
  return (ms.description ? piped.describe(ms.description) : piped) as unknown as AcceptsDuration<T>;
}

/** The shape with every field named in milliseconds taking the string form too. */
export function withDurations<S extends z.ZodRawShape>(
  shape: S,
): { [K in keyof S]: K extends `${string}Ms` | 'ms' ? (S[K] extends z.ZodType ? AcceptsDuration<S[K]> : S[K]) : S[K] } {
  return Object.fromEntries(
    Object.entries(shape).map(([key, field]) => [key, MS_KEY.test(key) ? acceptDuration(field as z.ZodType) : field]),
  ) as never;
}

/** A time in milliseconds or as text. Typed plainly so `.default()` and `.optional()` keep the text form. */
type Duration = z.ZodType<number, number | string>;

export const durationSchema: Duration = acceptDuration(z.number().nonnegative().max(MAX_DURATION_MS, TOO_LONG));

/** A duration that must not be zero (how long the workload runs). */
export const positiveDurationSchema: Duration = acceptDuration(
  z.number().positive('expected a duration above 0').max(MAX_DURATION_MS, TOO_LONG),
);

function parseDuration(text: string): number | undefined {
  const match = DURATION_TEXT.exec(text);
  return match ? Math.round(Number(match[1]) * UNITS[match[2]]) : undefined;
}
