// Ledger reconciliation: attribute every effect to its op (trace id first, then argsKey) and count what
// happened twice, what happened although the client saw a failure, and what never happened.
import type { History, OpRecord } from '../../../../src/core/history.ts';
import type { Effect } from '../../../../src/core/ledger.ts';

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

export function reconcile(history: History): ReconcileResult {
  const byId = new Map<string, OpRecord>();
  for (const op of history.ops) byId.set(op.opId, op);
  // argsKey must identify one op; a key shared by several ops attributes nothing (it would be a guess).
  const byArgs = new Map<string, OpRecord | null>();
  for (const op of history.ops) {
    if (op.argsKey === undefined) continue;
    byArgs.set(op.argsKey, byArgs.has(op.argsKey) ? null : op);
  }

  const effectsByOp = new Map<string, Effect[]>();
  const unattributedSeqs: number[] = [];
  let byTraceId = 0;
  let byArgsKey = 0;
  for (const effect of history.effects) {
    let op = effect.traceId !== undefined ? byId.get(effect.traceId) : undefined;
    if (op) byTraceId++;
    else if (effect.argsKey !== undefined) {
      op = byArgs.get(effect.argsKey) ?? undefined;
      if (op) byArgsKey++;
    }
    if (!op) {
      unattributedSeqs.push(effect.seq);
      continue;
    }
    const list = effectsByOp.get(op.opId);
    if (list) list.push(effect);
    else effectsByOp.set(op.opId, [effect]);
  }

  const duplicateOps: string[] = [];
  const ghostOps: string[] = [];
  const lostOps: string[] = [];
  const infoWithEffectOps: string[] = [];
  let duplicateEffects = 0;
  for (const op of history.ops) {
    const n = effectsByOp.get(op.opId)?.length ?? 0;
    if (n > 1) {
      duplicateEffects += n - 1;
      duplicateOps.push(op.opId);
    }
    if (op.outcome === 'fail' && n > 0) ghostOps.push(op.opId);
    if (op.outcome === 'info' && n > 0) infoWithEffectOps.push(op.opId);
    if (op.sideEffecting && op.outcome === 'ok' && n === 0) lostOps.push(op.opId);
  }

  return {
    duplicateEffects,
    ghostEffects: ghostOps.length,
    lostEffects: lostOps.length,
    unattributedEffects: unattributedSeqs.length,
    effectsByOp,
    reconciliation: {
      effects: history.effects.length,
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
