// Op windows: fault windows that open and close by the workload's progress (op indices on the plan) instead of the
// clock, so the ops that meet a fault are the same on a fast and a busy machine and counts (duplicates, retried
// ops, hits) do not move with its speed. How a window is carried depends on its seam (faults/kind.ts):
//
// - per-request (dependency, edge): the fault is in place for the whole workload and the seam picks the requests
//   of ops fromOp..toOp (and of their first `firstAttempts` attempts) by the op index each request carries. Exact,
//   however many ops are in flight.
// - progress (network, server): the seam cannot tell one op's bytes or sessions from another's, so the window opens
//   when op fromOp is issued and closes once every op fromOp..toOp has ended. Ops in flight beside them meet it too,
//   so this kind is progress-driven, not exact.
//
// On the report a window opens when op fromOp is issued. A per-request window ends when the first op past toOp is
// issued (no op from then on meets it), or when its last op ends if none comes after; a progress window ends when
// it is removed. Recovery is measured from that end, as from a time window's removal: for a per-request window it
// says how soon ops that never met the fault succeed at the steady level again (a breaker left open, a server
// still busy with retries), not how long the faulted ops took.
import { scopesPerRequest } from '../faults/kind.ts';
import type { FaultEntry } from '../profile/schema.ts';
import { faultId } from '../profile/timeline.ts';

type OpWindowScope = 'per-request' | 'progress';

export interface OpWindow {
  faultIndex: number;
  faultId: string;
  fromOp: number;
  /** The last op, included. */
  toOp: number;
  firstAttempts?: number;
  scope: OpWindowScope;
}

/** The op windows of `faults`, for a workload of `opCount` ops (a window without toOp runs to the last op). */
export function planOpWindows(faults: readonly FaultEntry[], opCount: number): OpWindow[] {
  return faults.flatMap((fault, i) => {
    if (fault.fromOp === undefined) return [];
    return [
      {
        faultIndex: i,
        faultId: faultId(fault, i),
        fromOp: fault.fromOp,
        toOp: Math.min(fault.toOp ?? opCount - 1, opCount - 1),
        ...(fault.firstAttempts !== undefined && { firstAttempts: fault.firstAttempts }),
        scope: scopesPerRequest(fault.seam) ? 'per-request' : 'progress',
      },
    ];
  });
}
