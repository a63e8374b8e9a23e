// What a run records: every attempt, op, fault window and effect on one timeline (epoch ms, core/clock).

import type { Effect } from './ledger.ts';
import type { StartOrder } from './start-order.ts';
import type { AttemptCategory } from './taxonomy.ts';

export type OpOutcome = 'ok' | 'fail' | 'info';

export interface AttemptRecord {
  opId: string;
  attempt: number; // 1-based
  startMs: number;
  endMs: number;
  ok: boolean;
  /** How the attempt failed, when it did. */
  category?: AttemptCategory;
  errorCode?: string;
  retryable?: boolean;
  /** Delay the failure advised (Retry-After or retryAfterMs), in ms. */
  retryAfterMs?: number;
  /** True when the attempt may have taken effect (timeout, lost response). */
  uncertain?: boolean;
  message?: string;
  /** The socket error code behind a failed MCP link (ECONNRESET, ECONNREFUSED, UND_ERR_SOCKET, ...). */
  cause?: string;
  /** SSE resumptions (GET + Last-Event-ID) the transport made for this attempt's stream. */
  resumptions?: number;
  /** What the client did next: retry, status lookup, re-initialize, give up. */
  next?: 'retry' | 'lookup' | 'reinit' | 'give-up' | 'done';
  /** A retry: how the attempt before it ended (a status lookup may have settled an unknown), and whether nothing the
   * tool declares made replaying it safe (client/replay.ts). Set by the op's tally after the attempt is recorded. */
  replay?: { after: 'ok' | 'fail' | 'unknown'; unsafe?: true };
  /** Size of the tool result as received (serialised JSON bytes), when there was one. */
  resultBytes?: number;
  /** The result was over the client's result budget and was cut, or re-fetched as a smaller page. */
  budget?: 'truncated' | 'paginated';
  /**
   * Everything the model sees of this attempt, whole: text content, structuredContent, isError texts, JSON-RPC
   * error message and data. The leak scan reads it (falling back to `message`).
   */
  visible?: string;
  /** Progress and log notifications received during the attempt (their model-visible text). */
  notifications?: string[];
  // For trace.jsonl (filled by the client's attempt code; a report writes what is there and derives nothing).
  /** The tool this attempt called (a corrected call may name another tool than the op's first). */
  tool?: string;
  /** The arguments as sent; trace.jsonl redacts them. */
  args?: Record<string, unknown>;
  /** The idempotency key the attempt carried, for side-effecting tools. */
  idempotencyKey?: string;
  /** HTTP status of the attempt's POST, when the transport saw one. */
  httpStatus?: number;
  /** The server's request id (ToolError.requestId or a response header), when it gave one. */
  requestId?: string;
  /** A proxy rewrote one of the attempt's Mcp-* routing headers on the way to the server. */
  headerTampered?: boolean;
  /** Retried input_required rounds sent inside this attempt (each after the server asked for the client's input). */
  inputRounds?: number;
  /** The task this attempt created (a task-only tool, 2026-07-28): its last status seen and the polls resumed. */
  task?: TaskAttempt;
  /** The backoff the client waited before this attempt (0 or absent for the first), in ms. */
  backoffMs?: number;
}

export interface OpRecord {
  opId: string;
  tool: string;
  sideEffecting: boolean;
  startMs: number;
  endMs: number;
  outcome: OpOutcome;
  attempts: number;
  failedAttempts: number;
  category?: AttemptCategory;
  errorCode?: string;
  /** Status lookups the client did instead of re-executing. */
  lookups?: number;
  /** Model-visible text of the final answer (for the leak scan). */
  visible?: string;
  /** Unique argument values of this op, matched against Effect.argsKey when an effect carries no trace id. */
  argsKey?: string;
  /** Of `lookups`, those that found the effect: each one a re-execution avoided. */
  lookupsFound?: number;
  /** Credential refreshes the client asked for after an AUTH failure. */
  authRefreshes?: number;
  /** The circuit breaker refused the op's next attempt (failed fast). */
  circuitOpen?: boolean;
  /** The model-side mistake the workload injected into this op's first call, if any. */
  mistake?: string;
  /** Calls re-issued with arguments corrected from fieldErrors (the model's self-corrections). */
  corrections?: number;
  /** The loop guard stopped a repeat of the same tool, arguments and error code. */
  loopGuardStop?: boolean;
  /** Attempts after the first, in any of the op's calls. */
  retries?: number;
  /** Of those, the ones whose previous attempt ended with its effect unknown. */
  replaysAfterUnknown?: number;
  /** Of those, the ones on a side-effecting tool neither declared idempotent nor keyed the server honours. */
  unsafeReplays?: number;
  /** The tool's annotations (readOnlyHint, idempotentHint, destructiveHint), when it declared any. */
  hints?: { readOnlyHint?: boolean; idempotentHint?: boolean; destructiveHint?: boolean };
  /** Attempts sent with the op's first arguments exactly (what an idempotentHint speaks of). */
  identicalCalls?: number;
}

/** A circuit breaker changed state (client side). */
export interface BreakerEvent {
  /** Which breaker: the tool it guards. */
  key: string;
  atMs: number;
  state: 'open' | 'half-open' | 'closed';
}

/** Something the client transport reported on client.onerror (SSE drops, reconnects, late responses). */
export interface TransportEvent {
  atMs: number;
  kind: 'sse-disconnected' | 'reconnect-failed' | 'reconnect-exhausted' | 'late-response' | 'request-failed' | 'other';
  message: string;
}

/** One `server/discover` probe of the SDK 2.4 client, as the client received its answer. */
export interface DiscoveryProbe {
  atMs: number;
  ms: number;
  status?: number;
  /** ok; an HTTP error with a JSON-RPC body; a 400 without one (no era evidence); no answer at all. */
  outcome: 'ok' | 'http-error' | 'bare-400' | 'network-error';
}

/** One connect of a negotiating (SDK 2.4) client: its probes and where it ended. */
export interface DiscoveryRecord {
  atMs: number;
  probes: DiscoveryProbe[];
  /** The protocol version agreed, when the connect succeeded. */
  negotiated?: string;
  error?: string;
}

/** What the client's subscriptions/listen loop saw (client/listener.ts): streams opened and closed, announcements. */
export interface SubscriptionEvent {
  atMs: number;
  /**
   * listening: the server acknowledged a listen; closed: a stream ended (`reason`: remote, graceful, local);
   * listen-failed: a listen was refused or never acknowledged; announced: a change notification (`key`: the charge
   * it announced); caught-up: a read of the resource after a re-listen (`keys`: every charge it listed).
   */
  kind: 'listening' | 'closed' | 'listen-failed' | 'announced' | 'caught-up';
  key?: string;
  keys?: string[];
  reason?: string;
  /** In a history merged from op shards (measure/merge.ts): the shard whose stream it was. Absent: the run's one stream. */
  shard?: number;
}

/**
 * Which kind of window it was: a time window (start, stop) or an op window (ops fromOp..toOp), carried per request
 * by its seam (exact) or opened and closed by the workload's progress (plan/op-windows.ts).
 */
export type WindowKind =
  | { kind: 'time' }
  | { kind: 'ops'; fromOp: number; toOp: number; firstAttempts?: number; scope: 'per-request' | 'progress' };

export interface FaultWindow {
  id: string;
  seam: string;
  kind: string;
  /** Absent in histories written before op windows: a time window. */
  window?: WindowKind;
  onMs: number;
  offMs?: number;
  /**
   * What the fault did while it was on, counted by its seam (requests it answered, connections or bytes a toxic
   * touched, rewrites, evictions, kills); null when the seam cannot count (e.g. an external Toxiproxy).
   */
  hits?: number | null;
  /** The profile allows this window to hit nothing (e.g. a probabilistic fault on a short window). */
  mayNotHit?: boolean;
}

export interface DecisionRecord {
  stream: string;
  what: string;
  value: number | string | boolean;
  /**
   * Drawn under a logical key (RandomStream.keyed): the value is fixed by seed, stream and key; whether it was
   * drawn at all depends on what happened when (see core/decision-log.ts).
   */
  keyed?: true;
}

/** A run's decisions in order: an array, or the run's own log, which keeps them encoded (core/decision-log.ts). */
export interface Decisions extends Iterable<DecisionRecord> {
  readonly length: number;
}

/**
 * A run's effects in the order the ledger got them: an array, or a view of the spill a server's effects were written
 * to as they came (targets/world-mirror.ts), read back on each pass.
 */
export interface Effects extends Iterable<Effect> {
  readonly length: number;
}

/** An op and its attempts as recorded; an op that never ended (a stopped run) has attempts only. */
export interface OpGroup {
  opId: string;
  op?: OpRecord;
  attempts: AttemptRecord[];
}

/** A run's records on disk (core/record-log.ts), read back one op at a time: by number, or all in order. */
export interface RecordSource {
  readonly count: number;
  group(i: number): OpGroup;
  groups(): Iterable<OpGroup>;
  /** Its attempts and its ops by start, when it kept them as it was written (none: read from `groups`). */
  starts?(): { attempts: StartOrder; ops: StartOrder };
}

export interface History {
  startMs: number;
  endMs: number;
  /**
   * The records in memory, by start: a history read from shard.json, or built by a test. A run's history has
   * `records` instead. Read either through core/history-records.ts, never directly.
   */
  attempts?: AttemptRecord[];
  ops?: OpRecord[];
  /** A run's records on disk, whole, read back one op at a time (core/history-records.ts). */
  records?: RecordSource;
  faults: FaultWindow[];
  effects: Effects;
  decisions: Decisions;
  /** What the client transport reported on onerror, in order (server-behaviour and network seams). */
  transportEvents?: TransportEvent[];
  /** Circuit breaker state changes, when the client runs a breaker. */
  breaker?: BreakerEvent[];
  /** Every connect of a negotiating client that probed `server/discover` (absent: none probed). */
  discovery?: DiscoveryRecord[];
  /** The client's subscriptions/listen loop, when the profile listens (absent: nobody listened). */
  subscriptions?: SubscriptionEvent[];
  /** Whether the server under test speaks 2026-07-28 (absent: unknown, e.g. a foreign server). */
  serverSpeaksModern?: boolean;
  /** False when the target gives no way to see effects (no ledger, no read-back): effect metrics are n/a. */
  effectsObservable?: boolean;
  /** Why not, when the target had a way (read-back, interception) and it failed: the n/a reason says so. */
  effectsUnknown?: string;
}

/** What one attempt saw of the task it created: the last status it read, and failed polls it resumed by id. */
export interface TaskAttempt {
  status: string;
  resumedPolls: number;
  /** Polls answered "unknown task" (the server forgot it in a restart), each followed by the task created again. */
  forgotten?: number;
  /** What the server said to a tasks/cancel the edge sent for this task (its `cancel-race` fault), when it sent one. */
  cancel?: 'won' | 'refused' | 'failed';
}
