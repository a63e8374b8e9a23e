// What a failed HTTP request's socket says about whether the request could have reached the other side. fetch
// (undici) rejects with a TypeError "fetch failed" whose `cause` carries the socket error's code; a Node-style
// error may carry it itself, and a dual-stack connect may wrap several in an AggregateError. The server (its
// dependency calls) and the client (its MCP link) both decide on it.

/** Codes that mean no connection was ever made: the request was never sent, so it cannot have taken effect. */
const NEVER_CONNECTED: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** The socket error code behind a failed request (ECONNRESET, ECONNREFUSED, UND_ERR_SOCKET, ...), if any. */
export function socketCause(error: unknown, depth = 0): string | undefined {
  if (!error || typeof error !== 'object' || depth > 4) return undefined;
  const { code, cause, errors } = error as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === 'string') return code;
  if (Array.isArray(errors) && errors.length > 0) return socketCause(errors[0], depth + 1);
  return socketCause(cause, depth + 1);
}

/** True when the socket error says the request never left: no connection was made. */
export function neverConnected(code: string | undefined): boolean {
  return code !== undefined && NEVER_CONNECTED.has(code);
}
