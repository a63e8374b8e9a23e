// Names that cross process and wire boundaries. One place, so the client, server and mocks cannot drift.

/** `_meta` key on tools/call that carries the op's trace id from the client to the server. */
export const TRACE_META_KEY = 'faultline/traceId';
/** Header the server forwards on every dependency call, so the ledger can attribute effects to ops. */
export const TRACE_HEADER = 'x-faultline-trace-id';
/** Header carrying the idempotency key to dependency APIs, as real payment APIs take it. */
export const IDEMPOTENCY_HEADER = 'idempotency-key';
