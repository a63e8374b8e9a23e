// The charges made so far, in order, and who wants to hear of the next one: the 2026-07-28 front end announces each
// on its subscriptions/listen streams (modern/payments-feed.ts). Era-neutral: nobody listens on 2025-11-25.
// The keys are kept for the whole run but read only when the feed's resource is read, so they are kept as text:
// every KEYS_PER_CHUNK keys joined into one flat string (a key's own string and array slot were about 45 B a charge
// in heap snapshots of the server child; joined, a key costs its characters and a separator).
const KEYS_PER_CHUNK = 1024;
/** Not in any idempotency key (tools/types.ts: [A-Za-z0-9._:-]), so joined keys split back exactly. */
const SEPARATOR = '\n';

export class ChargeFeed {
  /** Full chunks of joined keys, oldest first. */
  private readonly chunks: string[] = [];
  /** The keys since the last full chunk. */
  private recent: string[] = [];
  private readonly listeners = new Set<(key: string) => void>();

  announce(key: string): void {
    if (key.includes(SEPARATOR)) throw new Error('a charge key cannot hold a line break');
    this.recent.push(key);
    if (this.recent.length === KEYS_PER_CHUNK) {
      this.chunks.push(this.recent.join(SEPARATOR));
      this.recent = [];
    }
    for (const listener of this.listeners) listener(key);
  }

  /** Idempotency keys of the charges announced, oldest first. */
  keys(): string[] {
    return [...this.chunks.flatMap((chunk) => chunk.split(SEPARATOR)), ...this.recent];
  }

  /** Calls `listener` with each new charge's key; returns how to stop. */
  onCharge(listener: (key: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  clear(): void {
    this.chunks.length = 0;
    this.recent = [];
  }
}
