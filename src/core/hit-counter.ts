// What each fault window did, counted where it acted (its seam): one count per fault id. Seams call `count` at the
// moment a fault acts (answers a request, delays a chunk, rewrites an exchange, evicts a session); listeners see
// each hit as it happens (a server process streams them to the harness).

export type HitCounts = Record<string, number>;

export class HitCounter {
  private readonly counts = new Map<string, number>();
  private readonly listeners = new Set<(faultId: string) => void>();

  count(faultId: string): void {
    this.counts.set(faultId, (this.counts.get(faultId) ?? 0) + 1);
    for (const listener of this.listeners) listener(faultId);
  }

  /** Hits of one fault so far (0 when it never acted). */
  of(faultId: string): number {
    return this.counts.get(faultId) ?? 0;
  }

  all(): HitCounts {
    return Object.fromEntries(this.counts);
  }

  onHit(listener: (faultId: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  clear(): void {
    this.counts.clear();
  }
}

/** Sums hit counts of several sources (e.g. every server process a run had). */
export function sumHits(sources: readonly HitCounts[]): HitCounts {
  const total: HitCounts = {};
  for (const source of sources) for (const [id, n] of Object.entries(source)) total[id] = (total[id] ?? 0) + n;
  return total;
}
