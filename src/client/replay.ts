// Replay accounting: every retry is judged by how the attempt before it ended and by what the tool declares. A
// replay after an unknown outcome re-runs a call that may already have taken effect; it is safe only when the
// tool makes no effect, or it sends the very same arguments and either the tool declares itself idempotent or the
// server honours the idempotency key those arguments carry.
import type { ReplayTraits } from '../core/tool-declarations.ts';

/** How the attempt before a retry ended: ok, known to have failed, or with its effect unknown. */
export type PriorEnd = 'ok' | 'fail' | 'unknown';

/** A retry after an unknown outcome that nothing the tool declares makes safe. */
export function unsafeReplay(
  prior: PriorEnd,
  call: ReplayTraits & { sideEffecting: boolean },
  sameArgs: boolean,
): boolean {
  if (prior !== 'unknown' || !call.sideEffecting) return false;
  return !(sameArgs && (call.idempotent === true || call.keyHonoured === true));
}
