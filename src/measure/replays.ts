// Replay accounting over a run: retries, those after an unknown outcome, the unsafe ones and the second effects
// they made (the ledger or read-back is the judge), ops that ended indeterminate while their effect happened,
// and the tools whose annotations the effects contradict (hint-honesty.ts). Effect-judged counts are n/a (null)
// where effects are not observable.
import { doubled } from '../core/doubled.ts';
import type { OpRecord } from '../core/history.ts';
import { opName, opNumber } from '../core/op-name.ts';
import type { Accumulator } from './accumulator.ts';
import { type HintLie, hintLie } from './hint-honesty.ts';
import { OpSpans } from './op-spans.ts';
import { effectsOf, type ReconcileResult } from './reconcile.ts';

export interface LyingHint {
  tool: string;
  hint: HintLie;
  /** Ops whose effects contradict the hint. */
  ops: string[];
}

export interface ReplayMetrics {
  retries: number;
  replaysAfterUnknown: number;
  unsafeReplays: number;
  unsafeReplayDuplicates: number | null;
  indeterminateEffects: number | null;
  lyingHints: number | null;
  lyingHintTools: LyingHint[];
}

/** An op whose hints some effects could contradict. */
type HintedOp = { tool: string; hints: OpRecord['hints']; calls: number } & Pick<
  OpRecord,
  'opId' | 'outcome' | 'sideEffecting'
>;

/** What a run's ops said of their replays, before the effects are known. */
export interface ReplayTally {
  retries: number;
  replaysAfterUnknown: number;
  unsafeReplays: number;
  /** Op id -> its unsafe replays, for ops with any. */
  unsafe: Map<string, number>;
  /** Ops whose hints some effects could contradict, in start order (each built when read). */
  hinted: Iterable<HintedOp>;
}

/** Counted as the run goes; only ops that replayed unsafely or declared a hint effects could belie are kept. */
export class ReplayCounter implements Accumulator<ReplayTally> {
  private retries = 0;
  private replaysAfterUnknown = 0;
  private unsafeReplays = 0;
  private readonly unsafe = new Map<string, number>();
  private readonly hinted = new HintedOps();

  op(o: OpRecord): void {
    this.retries += o.retries ?? 0;
    this.replaysAfterUnknown += o.replaysAfterUnknown ?? 0;
    this.unsafeReplays += o.unsafeReplays ?? 0;
    if (o.unsafeReplays) this.unsafe.set(o.opId, o.unsafeReplays);
    const calls = o.identicalCalls ?? o.attempts;
    if (hintLie(o.hints, calls, Number.POSITIVE_INFINITY)) this.hinted.push(o, calls);
  }

  result(): ReplayTally {
    const { retries, replaysAfterUnknown, unsafeReplays, unsafe } = this;
    return { retries, replaysAfterUnknown, unsafeReplays, unsafe: new Map(unsafe), hinted: this.hinted.byStart() };
  }
}

const OUTCOMES: OpRecord['outcome'][] = ['ok', 'fail', 'info'];
const SIDE_EFFECTING = 4;

/**
 * The hinted ops as columns: every op of a read-only tool is one (40 % of a long run's ops in bench:scale's mix), so
 * each keeps its op number, start, calls, two flag bits and its tool and hints by number (25 B), never an object or
 * its id's string (an id in another spelling is kept as it is).
 */
class HintedOps {
  private readonly rows = new OpSpans();
  /** Each row's op number (core/op-name.ts), or -1 where its id is spelled otherwise and kept in `otherIds`. */
  private number = new Int32Array(1024);
  private readonly otherIds = new Map<number, string>();
  private readonly kinds: Pick<HintedOp, 'tool' | 'hints'>[] = [];
  private readonly kindOf = new Map<string, number>();
  private kind = new Int32Array(1024);

  push(o: OpRecord, calls: number): void {
    const key = `${o.tool}\0${JSON.stringify(o.hints)}`;
    let kind = this.kindOf.get(key);
    if (kind === undefined) {
      kind = this.kinds.push({ tool: o.tool, hints: o.hints }) - 1;
      this.kindOf.set(key, kind);
    }
    // A span's end holds the calls: these rows are never read as spans.
    const row = this.rows.push(o.startMs, calls, OUTCOMES.indexOf(o.outcome) | (o.sideEffecting ? SIDE_EFFECTING : 0));
    if (row === this.number.length) {
      this.number = doubled(this.number);
      this.kind = doubled(this.kind);
    }
    this.number[row] = opNumber(o.opId);
    if (this.number[row] === -1) this.otherIds.set(row, o.opId);
    this.kind[row] = kind;
  }

  private idOf(row: number): string {
    const n = this.number[row];
    return n === -1 ? this.otherIds.get(row)! : opName(n);
  }

  *byStart(): Generator<HintedOp> {
    const { rows } = this;
    const byId = (a: number, b: number) => {
      const [x, y] = [this.idOf(a), this.idOf(b)];
      return x < y ? -1 : x > y ? 1 : 0;
    };
    for (const i of rows.byStart(byId)) {
      const flags = rows.flags[i];
      yield {
        opId: this.idOf(i),
        outcome: OUTCOMES[flags & 3],
        sideEffecting: (flags & SIDE_EFFECTING) !== 0,
        ...this.kinds[this.kind[i]],
        calls: rows.end[i],
      };
    }
  }
}

export function replayMetrics(
  tally: ReplayTally,
  effects: Pick<ReconcileResult, 'effectsByOp' | 'reconciliation'>,
  observable: boolean,
): ReplayMetrics {
  // Each unsafe replay can make at most one effect beyond the first (an op with two or more is never implied).
  let duplicates = 0;
  for (const [opId, n] of tally.unsafe)
    duplicates += Math.min(n, Math.max(0, (effects.effectsByOp.get(opId) ?? 0) - 1));
  const lies = new Map<string, LyingHint>();
  for (const op of tally.hinted) {
    const hint = hintLie(op.hints, op.calls, effectsOf(effects, op));
    if (!hint) continue;
    const key = `${op.tool}\0${hint}`;
    const entry = lies.get(key) ?? { tool: op.tool, hint, ops: [] };
    entry.ops.push(op.opId);
    lies.set(key, entry);
  }
  const seen = (n: number) => (observable ? n : null);
  return {
    retries: tally.retries,
    replaysAfterUnknown: tally.replaysAfterUnknown,
    unsafeReplays: tally.unsafeReplays,
    unsafeReplayDuplicates: seen(duplicates),
    indeterminateEffects: seen(effects.reconciliation.infoWithEffectOps.length),
    lyingHints: seen(new Set([...lies.values()].map((l) => l.tool)).size),
    lyingHintTools: observable ? [...lies.values()] : [],
  };
}
