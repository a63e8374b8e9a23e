// The busiest sliding window of a run's attempt starts. Records arrive in end order and an op may end long after its
// first attempt started, so a start is final only below the feed's low watermark (accumulator.ts): no earlier start
// can arrive after it. Starts above it wait (bounded by what is in flight); final ones slide through the window and
// only those within `windowMs` of the newest are kept.
export class StartTimes {
  /** Starts not final yet, in arrival order. */
  private pending: number[] = [];
  /** Final starts, ascending, from `head` on: those within the window of the newest. */
  private tail: number[] = [];
  private head = 0;
  private best = 0;

  constructor(private readonly windowMs: number) {}

  push(ms: number): void {
    this.pending.push(ms);
  }

  /** No start before `ms` arrives from now on: the earlier ones are counted and let go. */
  watermark(ms: number): void {
    const { pending } = this;
    if (pending.length === 0) return;
    pending.sort((a, b) => a - b);
    let n = 0;
    while (n < pending.length && pending[n] < ms) this.slide(pending[n++]);
    if (n > 0) this.pending = pending.slice(n);
  }

  /** Most starts within any window of `windowMs` ([t, t + windowMs)). */
  max(): number {
    this.watermark(Number.POSITIVE_INFINITY);
    return this.best;
  }

  private slide(ms: number): void {
    const { tail } = this;
    tail.push(ms);
    while (ms - tail[this.head] >= this.windowMs) this.head++;
    this.best = Math.max(this.best, tail.length - this.head);
    // Let the passed ones go once they are most of the array (amortised O(1) per start).
    if (this.head > 1024 && this.head * 2 > tail.length) {
      this.tail = tail.slice(this.head);
      this.head = 0;
    }
  }
}
