// The charges made so far, in order, and who wants to hear of the next one: the 2026-07-28 front end announces each
// on its subscriptions/listen streams (modern/payments-feed.ts). Era-neutral: nobody listens on 2025-11-25.
export class ChargeFeed {
  /** Idempotency keys of the charges announced, oldest first. */
  readonly keys: string[] = [];
  private readonly listeners = new Set<(key: string) => void>();

  announce(key: string): void {
    this.keys.push(key);
    for (const listener of this.listeners) listener(key);
  }

  /** Calls `listener` with each new charge's key; returns how to stop. */
  onCharge(listener: (key: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  clear(): void {
    this.keys.length = 0;
  }
}
