// Names that cross process and wire boundaries. One place, so the client, server and mocks cannot drift.

/** `_meta` key on tools/call that carries the op's trace id from the client to the server. */
export const TRACE_META_KEY = 'faultline/traceId';
/** Header the server forwards on every dependency call, so the ledger can attribute effects to ops. */
export const TRACE_HEADER = 'x-faultline-trace-id';
/** Header carrying the idempotency key to dependency APIs, as real payment APIs take it. */
export const IDEMPOTENCY_HEADER = 'idempotency-key';
/** `_meta` key on tools/call that carries the attempt number (1, 2, …) of the op. */
export const ATTEMPT_META_KEY = 'faultline/attempt';
/** Header the server forwards with the attempt number, so seeded dependency faults can key their draws on it. */
export const ATTEMPT_HEADER = 'x-faultline-attempt';
/** `_meta` key where a 2026-07-28 request carries its protocol version (the era's envelope). */
export const ENVELOPE_VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';
/**
 * Response header the MCP-edge proxy adds when it rewrote one of the request's `Mcp-*` routing headers, so the
 * client's record of the attempt says the server answered a tampered request (what it answered is then measured).
 */
export const HEADER_TAMPERED_HEADER = 'x-faultline-header-tampered';
/** The reference server's payments feed (2026-07-28 subscriptions/listen): every charge, announced and listed. */
export const PAYMENTS_URI = 'faultline://payments';
/** `_meta` key of a payments-feed announcement (notifications/resources/updated): the charge's idempotency key. */
export const CHARGE_KEY_META = 'faultline/chargeKey';
/**
 * The edge's `cancel-race` fault sent a tasks/cancel just before this poll: it marks the poll's answer with what
 * the server said to the cancel (`won`, `refused`, or `failed` when it answered no status), so the attempt's task
 * record says which way the race went.
 */
export const TASK_CANCEL_HEADER = 'x-faultline-task-cancel';
