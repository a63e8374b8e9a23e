// The decision log: every random decision of a run, in order. Same seed and profile give the same log; its
// SHA-256 goes into the report so two runs can be compared at a glance.
import { createHash } from 'node:crypto';
import type { DecisionRecord } from './history.ts';
import { type DecisionSink, RandomStream } from './random.ts';

export class DecisionLog {
  readonly records: DecisionRecord[] = [];
  readonly sink: DecisionSink = (d) => {
    this.records.push(d);
  };

  constructor(readonly seed: number) {}

  stream(name: string): RandomStream {
    return new RandomStream(this.seed, name, this.sink);
  }

  /** Adds decisions made in another process (server child, embedded toxiproxy). */
  append(records: DecisionRecord[]): void {
    this.records.push(...records);
  }

  /**
   * Hash of the log grouped by stream. Concurrent ops interleave their draws differently from run to run, but
   * each stream's own sequence is fixed by the seed, so grouping (a stable sort) makes equal runs hash equal.
   */
  sha256(): string {
    const hash = createHash('sha256');
    const ordered = [...this.records].sort((a, b) => (a.stream < b.stream ? -1 : a.stream > b.stream ? 1 : 0));
    for (const r of ordered) hash.update(`${r.stream}\t${r.what}\t${String(r.value)}\n`);
    return hash.digest('hex');
  }
}
