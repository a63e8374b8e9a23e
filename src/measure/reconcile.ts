// Ledger reconciliation: attribute every effect to its op (trace id first, then argsKey) and count what
// happened twice, what happened although the client saw a failure, and what never happened.
import type { OpOutcome, OpRecord } from '../core/history.ts';
import type { Effect } from '../core/ledger.ts';
import type { Accumulator, RunFrame } from './accumulator.ts';
import { OpSpans } from './op-spans.ts';

export interface Reconciliation {
  /** Effects in the ledger. */
  effects: number;
  /** Effects matched to an op by trace id. */
  byTraceId: number;
  /** Effects matched to an op by argsKey (no trace id, or an unknown one). */
  byArgsKey: number;
  /** Op ids with more than one effect. */
  duplicateOps: string[];
  /** Op ids with outcome `fail` and at least one effect. */
  ghostOps: string[];
  /** Side-effecting op ids with outcome `ok` and no effect. */
  lostOps: string[];
  /** Op ids with outcome `info` and at least one effect (indeterminate, for the record). */
  infoWithEffectOps: string[];
  /** Ledger `seq` of effects no op claims. */
  unattributedSeqs: number[];
}

export interface ReconcileResult {
  duplicateEffects: number;
  ghostEffects: number;
  lostEffects: number;
  unattributedEffects: number;
  reconciliation: Reconciliation;
  /** Effects per op id (only ops with at least one). */
  effectsByOp: Map<string, Effect[]>;
}

const OUTCOME: Record<OpOutcome, number> = { ok: 0, fail: 1, info: 2 };
const OUTCOME_BITS = 3;
const SIDE_EFFECTING = 4;

/**
 * Counted as the run goes. The ledger (or read-back) is read once, after the server drained, so the effects come
 * with the run frame: every ended op keeps its id, start, argsKey and three bits until then, never its record, and
 * an effect that landed after its op closed (a late ghost) reconciles like any other.
 */
export class EffectReconciler implements Accumulator<ReconcileResult> {
  private readonly spans = new OpSpans();
  private readonly ids: string[] = [];
  private readonly rowOf = new Map<string, number>();
  /** argsKey -> the one op that has it, or -1: a key shared by several ops attributes nothing (it would be a guess). */
  private readonly byArgs = new Map<string, number>();

  op(o: OpRecord): void {
    const row = this.spans.push(o.startMs, o.endMs, OUTCOME[o.outcome] | (o.sideEffecting ? SIDE_EFFECTING : 0));
    this.ids.push(o.opId);
    this.rowOf.set(o.opId, row);
    if (o.argsKey !== undefined) this.byArgs.set(o.argsKey, this.byArgs.has(o.argsKey) ? -1 : row);
  }

  result(run: RunFrame): ReconcileResult {
    const { ids, spans } = this;
    const effectsByOp = new Map<string, Effect[]>();
    const unattributedSeqs: number[] = [];
    let byTraceId = 0;
    let byArgsKey = 0;
    for (const effect of run.effects) {
      let row = effect.traceId !== undefined ? this.rowOf.get(effect.traceId) : undefined;
      if (row !== undefined) byTraceId++;
      else if (effect.argsKey !== undefined) {
        row = this.byArgs.get(effect.argsKey);
        if (row === -1) row = undefined;
        if (row !== undefined) byArgsKey++;
      }
      if (row === undefined) {
        unattributedSeqs.push(effect.seq);
        continue;
      }
      const list = effectsByOp.get(ids[row]);
      if (list) list.push(effect);
      else effectsByOp.set(ids[row], [effect]);
    }

    const duplicateOps: string[] = [];
    const ghostOps: string[] = [];
    const lostOps: string[] = [];
    const infoWithEffectOps: string[] = [];
    let duplicateEffects = 0;
    // In start order (ops end in any order), as the report lists them.
    for (const row of spans.byStart((a, b) => (ids[a] < ids[b] ? -1 : ids[a] > ids[b] ? 1 : 0))) {
      const opId = ids[row];
      const outcome = spans.flags[row] & OUTCOME_BITS;
      const n = effectsByOp.get(opId)?.length ?? 0;
      if (n > 1) {
        duplicateEffects += n - 1;
        duplicateOps.push(opId);
      }
      if (outcome === OUTCOME.fail && n > 0) ghostOps.push(opId);
      if (outcome === OUTCOME.info && n > 0) infoWithEffectOps.push(opId);
      if (spans.flags[row] & SIDE_EFFECTING && outcome === OUTCOME.ok && n === 0) lostOps.push(opId);
    }

    return {
      duplicateEffects,
      ghostEffects: ghostOps.length,
      lostEffects: lostOps.length,
      unattributedEffects: unattributedSeqs.length,
      effectsByOp,
      reconciliation: {
        effects: run.effects.length,
        byTraceId,
        byArgsKey,
        duplicateOps,
        ghostOps,
        lostOps,
        infoWithEffectOps,
        unattributedSeqs,
      },
    };
  }
}
