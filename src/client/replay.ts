// Replay accounting: every retry is judged by how the attempt before it ended and by what the tool declares. A
// replay after an unknown outcome re-runs a call that may already have taken effect; it is safe only when the
// tool makes no effect, or it sends the very same arguments and either the tool declares itself idempotent or the
// server honours the idempotency key those arguments carry.
import type { ToolHints } from '../measure/hint-honesty.ts';

/** What a tool declares about replays, as the client knows it (tools/list annotations, or the profile). */
export interface ReplayTraits {
  /** The tool's annotations (the reference server's own listing for its tools). */
  hints?: ToolHints;
  /** The profile's `idempotent` override, else the tool's idempotentHint. */
  idempotent?: boolean;
  /** The server honours the key in `idempotencyArg` (the reference server's own trait; another server's only when
   * the profile names `idempotencyKeyArg`). */
  keyHonoured?: boolean;
}

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
