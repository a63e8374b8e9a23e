// Reported times carry 0.1 ms: the clock has sub-ms resolution, readers do not need more.
export function round1(ms: number): number {
  return Math.round(ms * 10) / 10;
}
