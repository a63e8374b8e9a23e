// Replay accounting over a run: retries, those after an unknown outcome, the unsafe ones and the second effects
// they made (the ledger or read-back is the judge), ops that ended indeterminate while their effect happened,
// and the tools whose annotations the effects contradict (hint-honesty.ts). Effect-judged counts are n/a (null)
// where effects are not observable.
import type { History } from '../../../../src/core/history.ts';
import { type HintLie, hintLie } from '../../../../src/measure/hint-honesty.ts';
import type { ReconcileResult } from './reconcile.ts';

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

export function replayMetrics(
  history: History,
  effects: Pick<ReconcileResult, 'effectsByOp' | 'reconciliation'>,
  observable: boolean,
): ReplayMetrics {
  const ops = history.ops;
  const sum = (f: (o: (typeof ops)[number]) => number | undefined) => ops.reduce((n, o) => n + (f(o) ?? 0), 0);
  const effectsOf = (opId: string) => effects.effectsByOp.get(opId)?.length ?? 0;
  // Each unsafe replay can make at most one effect beyond the first.
  const duplicates = sum((o) => Math.min(o.unsafeReplays ?? 0, Math.max(0, effectsOf(o.opId) - 1)));
  const lies = new Map<string, LyingHint>();
  for (const op of ops) {
    const hint = hintLie(op.hints, op.identicalCalls ?? op.attempts, effectsOf(op.opId));
    if (!hint) continue;
    const key = `${op.tool}\0${hint}`;
    const entry = lies.get(key) ?? { tool: op.tool, hint, ops: [] };
    entry.ops.push(op.opId);
    lies.set(key, entry);
  }
  const seen = (n: number) => (observable ? n : null);
  return {
    retries: sum((o) => o.retries),
    replaysAfterUnknown: sum((o) => o.replaysAfterUnknown),
    unsafeReplays: sum((o) => o.unsafeReplays),
    unsafeReplayDuplicates: seen(duplicates),
    indeterminateEffects: seen(effects.reconciliation.infoWithEffectOps.length),
    lyingHints: seen(new Set([...lies.values()].map((l) => l.tool)).size),
    lyingHintTools: observable ? [...lies.values()] : [],
  };
}
