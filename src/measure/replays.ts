// Replay accounting over a run: retries, those after an unknown outcome, the unsafe ones and the second effects
// they made (the ledger or read-back is the judge), ops that ended indeterminate while their effect happened,
// and the tools whose annotations the effects contradict (hint-honesty.ts). Effect-judged counts are n/a (null)
// where effects are not observable.
import type { OpRecord } from '../core/history.ts';
import type { Accumulator } from './accumulator.ts';
import { type HintLie, hintLie } from './hint-honesty.ts';
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

/** What a run's ops said of their replays, before the effects are known. */
export interface ReplayTally {
  retries: number;
  replaysAfterUnknown: number;
  unsafeReplays: number;
  /** Op id -> its unsafe replays, for ops with any. */
  unsafe: Map<string, number>;
  /** Ops whose hints some effects could contradict, in start order. */
  hinted: ({ tool: string; hints: OpRecord['hints']; calls: number } & Pick<
    OpRecord,
    'opId' | 'outcome' | 'sideEffecting'
  >)[];
}

/** Counted as the run goes; only ops that replayed unsafely or declared a hint effects could belie are kept. */
export class ReplayCounter implements Accumulator<ReplayTally> {
  private retries = 0;
  private replaysAfterUnknown = 0;
  private unsafeReplays = 0;
  private readonly unsafe = new Map<string, number>();
  private readonly hinted: (ReplayTally['hinted'][number] & { startMs: number })[] = [];

  op(o: OpRecord): void {
    this.retries += o.retries ?? 0;
    this.replaysAfterUnknown += o.replaysAfterUnknown ?? 0;
    this.unsafeReplays += o.unsafeReplays ?? 0;
    if (o.unsafeReplays) this.unsafe.set(o.opId, o.unsafeReplays);
    const calls = o.identicalCalls ?? o.attempts;
    if (hintLie(o.hints, calls, Number.POSITIVE_INFINITY))
      this.hinted.push({
        opId: o.opId,
        outcome: o.outcome,
        sideEffecting: o.sideEffecting,
        tool: o.tool,
        hints: o.hints,
        calls,
        startMs: o.startMs,
      });
  }

  result(): ReplayTally {
    const { retries, replaysAfterUnknown, unsafeReplays, unsafe } = this;
    const byStart = [...this.hinted].sort(
      (a, b) => a.startMs - b.startMs || (a.opId < b.opId ? -1 : a.opId > b.opId ? 1 : 0),
    );
    const hinted = byStart.map(({ startMs: _, ...h }) => h);
    return { retries, replaysAfterUnknown, unsafeReplays, unsafe: new Map(unsafe), hinted };
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
