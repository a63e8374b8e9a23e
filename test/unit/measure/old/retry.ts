// Retry success: of the ops that hit at least one failed attempt, how many still ended ok. Overall, per fault
// window and per fault kind.
import type { History, OpRecord } from '../../../../src/core/history.ts';
import type { KindRetryRate, RetryRate, WindowRetryRate } from '../../../../src/measure/types.ts';
import { opsInWindow } from './windows.ts';

export interface RetryResult extends RetryRate {
  byWindow: WindowRetryRate[];
  byKind: KindRetryRate[];
}

export function retrySuccess(history: History): RetryResult {
  const failedAttemptOps = new Set<string>();
  for (const a of history.attempts) if (!a.ok) failedAttemptOps.add(a.opId);
  // An op the circuit breaker failed fast has no failed attempt, but it failed all the same.
  const hadFailure = (op: OpRecord) => op.failedAttempts > 0 || failedAttemptOps.has(op.opId) || !!op.circuitOpen;

  const byWindow = history.faults.map((w) => {
    const ops = opsInWindow(history, w);
    return { fault: w.id, kind: w.kind, ops: ops.length, ...rate(ops, hadFailure) };
  });

  // A kind's ops are the union over its windows, so an op spanning two windows of one kind counts once.
  const kinds = new Map<string, Map<string, OpRecord>>();
  for (const w of history.faults) {
    const set = kinds.get(w.kind) ?? new Map<string, OpRecord>();
    for (const op of opsInWindow(history, w)) set.set(op.opId, op);
    kinds.set(w.kind, set);
  }
  const byKind = [...kinds].map(([kind, set]) => {
    const ops = [...set.values()];
    return { kind, ops: ops.length, ...rate(ops, hadFailure) };
  });

  return { ...rate(history.ops, hadFailure), byWindow, byKind };
}

function rate(ops: OpRecord[], hadFailure: (op: OpRecord) => boolean): RetryRate {
  let retriedOps = 0;
  let recoveredOps = 0;
  for (const op of ops) {
    if (!hadFailure(op)) continue;
    retriedOps++;
    if (op.outcome === 'ok') recoveredOps++;
  }
  return { retriedOps, recoveredOps, rate: retriedOps === 0 ? null : recoveredOps / retriedOps };
}
