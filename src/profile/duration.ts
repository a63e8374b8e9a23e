// Durations in profiles: a number of milliseconds, or a string such as "250ms", "2s", "1.5m".
import { z } from 'zod';

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000 };

export const durationSchema = z
  .union([
    z.number().nonnegative(),
    z.string().regex(/^\d+(\.\d+)?(ms|s|m)$/, 'expected a duration such as 500, "500ms", "2s" or "1m"'),
  ])
  .transform((v) => (typeof v === 'number' ? v : parseDuration(v)));

export function parseDuration(text: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m)$/.exec(text);
  if (!match) throw new Error(`not a duration: ${text}`);
  return Math.round(Number(match[1]) * UNITS[match[2]]);
}
