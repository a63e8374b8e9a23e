// A time written relative to a base (a run's or a record's start) in as few digits as give it back exactly. Four
// decimals (a tenth of a microsecond) are finer than the grid of epoch times (2^-12 ms from 2004 to 2039), so a
// clock reading comes back exactly from them; any other time falls back to the exact difference, or to itself.
/** Written: a number (added to the base) or, when no difference comes back exactly, `[value]`. */
export type RelativeTime = number | [number];

export function relative(value: number, base: number): RelativeTime {
  const short = Math.round((value - base) * 1e4) / 1e4;
  if (base + short === value) return short;
  const delta = value - base;
  return base + delta === value ? delta : [value];
}

export function absolute(written: unknown, base: number): number {
  return Array.isArray(written) ? (written[0] as number) : base + (written as number);
}
