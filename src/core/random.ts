// Seeded random streams. One run seed; every component draws from its own named stream derived from it, so
// adding a draw in one component never shifts another's sequence. Each draw can be logged as a decision.
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import type { DecisionRecord } from './history.ts';

export type DecisionSink = (decision: DecisionRecord) => void;

/** FNV-1a over the seed and stream name: a stable 32-bit seed per stream. */
function streamSeed(seed: number, name: string): number {
  let hash = 0x811c9dc5;
  for (const ch of `${seed}:${name}`) {
    hash ^= ch.codePointAt(0)!;
    hash = Math.imul(hash, 0x01000193);
  }
  return hash | 0;
}

export class RandomStream {
  private readonly rng;

  constructor(
    readonly seed: number,
    readonly name: string,
    private readonly sink?: DecisionSink,
    /** Draws under a logical key (see `keyed`): marked so in the log. */
    private readonly underKey = false,
  ) {
    this.rng = xoroshiro128plus(streamSeed(seed, name));
  }

  /** A float in [0, 1). `what` names the decision in the log. */
  float(what: string): number {
    return this.log(what, uniformFloat64(this.rng));
  }

  /** An integer in [from, to], both included. */
  int(what: string, from: number, to: number): number {
    return this.log(what, uniformInt(this.rng, from, to));
  }

  /** True with probability p. */
  chance(what: string, p: number): boolean {
    if (p >= 1) return this.log(what, true);
    if (p <= 0) return this.log(what, false);
    return this.log(what, uniformFloat64(this.rng) < p);
  }

  pick<T>(what: string, items: readonly T[]): T {
    return items[this.int(what, 0, items.length - 1)];
  }

  /** A child stream, e.g. one per proxy or per op. */
  child(name: string): RandomStream {
    return new RandomStream(this.seed, `${this.name}/${name}`, this.sink, this.underKey);
  }

  /**
   * The stream of one logical key (an op's attempt and request, a connection ordinal): what it draws is a
   * function of seed, stream and key, made when something reaches that key (a request arrives while a fault is
   * on, an attempt fails, a connection opens). Its decisions, and its children's, are marked `keyed` in the log
   * (core/decision-log.ts says what that means for the hash).
   */
  keyed(key: string): RandomStream {
    return new RandomStream(this.seed, `${this.name}/${key}`, this.sink, true);
  }

  private log<T extends number | boolean>(what: string, value: T): T {
    this.sink?.({ stream: this.name, what, value, ...(this.underKey && { keyed: true as const }) });
    return value;
  }
}
