// The decision log: every random decision of a run, in order, and its SHA-256 for the report.
//
// What is a decision, and what the hash covers. Every draw is a function of the seed, its stream and, where
// something happens at run time, a logical key (the op's trace id, attempt and request ordinal; a connection
// ordinal): never of the order in which concurrent requests arrive. Two kinds of draws follow from that:
//
// - Plan decisions: what the seed decides before anything runs or whatever the timing (the op schedule, its
//   arguments and mistakes, the fault timeline), and draws that have no logical key (a request without a trace
//   id, drawn in arrival order). Same seed and profile give the same sequence of these, so they are hashed.
// - Keyed draws (RandomStream.keyed, `keyed: true` in the log): which way a probabilistic fault goes for op 12's
//   attempt 2, the backoff after it, a toxic's toxicity on connection 15. The value is a function of seed,
//   stream and key, so it is the same in every run that draws it; but whether a run draws it at all is an
//   outcome of timing (did the attempt reach the dependency before or after the window closed; did attempt 1
//   fail, so that there is an attempt 2), not a decision of the seed. They stay in the log, for the trace and
//   for replay, and are left out of the hash: on a busy machine a retry that lands 3 ms later outside a window
//   changes which keys are drawn, never what any key draws.
//
// So equal hashes mean the same plan and the same arrival-order draws; `compareKeyed` checks the rest: every key
// drawn in both runs drew the same values (a difference there is a real non-determinism), and it lists the keys
// only one run reached (timing).
//
// A long run draws millions of decisions, so the log keeps each one as a short JSON line (`[stream, what, value]`,
// and `1` after them for a keyed draw) and decodes them as they are read. Lines are joined into flat chunks of
// CHUNK_LINES: one string per line costs its header, an array slot and, for a drawn number, the parts V8's
// JSON.stringify concatenates (about 150 B a decision in a heap snapshot); a chunk costs the line's characters.
// A spilling run's log writes the lines to a LineSpill instead (core/line-spill.ts) and holds none of them.
import { decisionsSha256 } from './decisions-hash.ts';
import type { DecisionRecord, Decisions } from './history.ts';
import type { LineSpill } from './line-spill.ts';
import { type DecisionSink, RandomStream } from './random.ts';

/** A decision as the log (and history.jsonl) writes it. */
export type EncodedDecision = [stream: string, what: string, value: DecisionRecord['value'], keyed?: 1];
export const encodedDecision = (d: DecisionRecord): EncodedDecision =>
  d.keyed ? [d.stream, d.what, d.value, 1] : [d.stream, d.what, d.value];

export function decodedDecision([stream, what, value, keyed]: EncodedDecision): DecisionRecord {
  return keyed ? { stream, what, value, keyed: true } : { stream, what, value };
}

const decode = (line: string): DecisionRecord => decodedDecision(JSON.parse(line) as EncodedDecision);

/** Lines per joined chunk: big enough that a chunk's own cost vanishes, small enough to join in a blink. */
const CHUNK_LINES = 4096;

export class DecisionLog implements Decisions {
  /** Full chunks, each CHUNK_LINES lines joined by newlines (JSON escapes every newline inside a line). */
  private readonly chunks: string[] = [];
  private pending: string[] = [];
  readonly sink: DecisionSink;

  /** With a spill, every decision is written to it and none is held. */
  constructor(
    readonly seed: number,
    private readonly spill?: LineSpill,
  ) {
    this.sink = spill
      ? (d) => {
          spill.append(encodedDecision(d));
        }
      : (d) => {
          this.pending.push(JSON.stringify(encodedDecision(d)));
          if (this.pending.length === CHUNK_LINES) {
            this.chunks.push(this.pending.join('\n'));
            this.pending = [];
          }
        };
  }

  stream(name: string): RandomStream {
    return new RandomStream(this.seed, name, this.sink);
  }

  get length(): number {
    return this.spill ? this.spill.lines : this.chunks.length * CHUNK_LINES + this.pending.length;
  }

  *[Symbol.iterator](): Iterator<DecisionRecord> {
    if (this.spill) {
      for (const line of this.spill.all()) yield decodedDecision(line as EncodedDecision);
      return;
    }
    const full = this.chunks.length;
    for (let i = 0; i < full; i++) for (const line of this.chunks[i].split('\n')) yield decode(line);
    // Lines drawn while iterating (none in a run's end phase) are not promised; the pending ones are read as they stand.
    for (const line of this.pending.slice()) yield decode(line);
  }

  /** Every decision, decoded at once (a short log's callers, tests). */
  get records(): DecisionRecord[] {
    return [...this];
  }

  /** Adds decisions made in another process (server child, embedded toxiproxy). */
  append(records: Iterable<DecisionRecord>): void {
    for (const d of records) this.sink(d);
  }

  /** Hash of the plan decisions (keyed draws left out, see above). */
  sha256(): string {
    return decisionsSha256(this);
  }
}

export interface KeyedComparison {
  /** Keyed streams drawn in both runs. */
  common: number;
  /** Keyed streams drawn in both runs whose draws differ: each one a real non-determinism. */
  mismatched: { stream: string; what: string; expected: DecisionRecord['value']; actual: DecisionRecord['value'] }[];
  /** Keyed streams only the first (or only the second) run drew: reached in one run and not the other (timing). */
  onlyFirst: string[];
  onlySecond: string[];
}

function keyedByStream(log: readonly DecisionRecord[]): Map<string, DecisionRecord[]> {
  const streams = new Map<string, DecisionRecord[]>();
  for (const d of log) if (d.keyed) streams.set(d.stream, [...(streams.get(d.stream) ?? []), d]);
  return streams;
}

/** Compares the keyed draws of two runs of one profile and seed, key by key. */
export function compareKeyed(first: readonly DecisionRecord[], second: readonly DecisionRecord[]): KeyedComparison {
  const a = keyedByStream(first);
  const b = keyedByStream(second);
  const result: KeyedComparison = { common: 0, mismatched: [], onlyFirst: [], onlySecond: [] };
  for (const [stream, left] of a) {
    const right = b.get(stream);
    if (!right) {
      result.onlyFirst.push(stream);
      continue;
    }
    result.common++;
    // A key draws the same sequence wherever both runs drew; one run may have gone on drawing (timing).
    const i = left.findIndex((x, j) => j < right.length && (x.what !== right[j].what || x.value !== right[j].value));
    if (i >= 0) result.mismatched.push({ stream, what: left[i].what, expected: left[i].value, actual: right[i].value });
  }
  for (const stream of b.keys()) if (!a.has(stream)) result.onlySecond.push(stream);
  result.onlyFirst.sort();
  result.onlySecond.sort();
  return result;
}
