// Which requests an op window touches: those of ops `from`..`to` (op indices on the plan, both included), and when
// `firstAttempts` is set only those attempts' requests. A seam decides it per request from the request's logical key
// (core/logical-key.ts: `op-<index>[/attempt-<n>]/request-<k>`, built from the trace id and attempt the client sends),
// so exactly the same requests meet the fault however fast the machine is and however many ops are in flight.

export interface OpScope {
  from: number;
  to: number;
  /** Only each op's first this-many attempts (a request with no attempt number is then outside). */
  firstAttempts?: number;
}

const KEY = /^op-(\d+)(?:\/attempt-(\d+))?\//;

/** Whether the request with this logical key belongs to the scope; a request without one (no trace id) never does. */
export function inOpScope(scope: OpScope, key: string | undefined): boolean {
  const match = key === undefined ? null : KEY.exec(key);
  if (!match) return false;
  const index = Number(match[1]);
  if (index < scope.from || index > scope.to) return false;
  if (scope.firstAttempts === undefined) return true;
  return match[2] !== undefined && Number(match[2]) <= scope.firstAttempts;
}
