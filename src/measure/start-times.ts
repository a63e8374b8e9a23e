// Start times of a run's attempts, for the busiest sliding window. Records arrive in end order and an op may end
// long after its first attempt started, so no window is final before the run ends: one float per attempt is kept
// (8 bytes, in a growing typed array), never the records.
export class StartTimes {
  private times = new Float64Array(1024);
  private n = 0;

  push(ms: number): void {
    if (this.n === this.times.length) {
      const grown = new Float64Array(this.times.length * 2);
      grown.set(this.times);
      this.times = grown;
    }
    this.times[this.n++] = ms;
  }

  /** Most starts within any window of `windowMs` ([t, t + windowMs)). */
  maxWithin(windowMs: number): number {
    const sorted = this.times.subarray(0, this.n).sort();
    let max = 0;
    for (let lo = 0, hi = 0; hi < sorted.length; hi++) {
      while (sorted[hi] - sorted[lo] >= windowMs) lo++;
      max = Math.max(max, hi - lo + 1);
    }
    return max;
  }
}
