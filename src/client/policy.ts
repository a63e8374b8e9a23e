// A client policy: how the client turns one planned op into calls, attempts and an op record. A policy is a
// composition of small units (client/units/); this file is the contract between the policy, the workload
// driver and the units.
import type { AttemptRecord, BreakerEvent, OpRecord } from '../core/history.ts';
import type { PolicyName } from '../core/policy-names.ts';
import type { RandomStream } from '../core/random.ts';
import type { FieldError } from '../core/taxonomy.ts';
import type { ReplayTraits } from '../core/tool-declarations.ts';
import type { PlannedOp } from '../plan/schedule.ts';
import type { Profile } from '../profile/schema.ts';
import type { AttemptRegistry } from './attempt-registry.ts';
import type { ListenPolicy } from './listener.ts';
import type { McpClient } from './mcp-client.ts';

export interface LogicalCall extends ReplayTraits {
  opId: string;
  /** The op's id on the wire (trace id, idempotency key stem) when it is not the op id: run, shard, profile, op. */
  traceId?: string;
  tool: string;
  args: Record<string, unknown>;
  sideEffecting: boolean;
  /** Argument that carries the idempotency key, for side-effecting tools. */
  idempotencyArg?: string;
  /** How to ask whether an uncertain side effect happened (by idempotency key). */
  statusLookup?: { tool: string; keyArg: string };
  /** The tool undoes nothing but promises no effect once cancelled: a timed-out (and so cancelled) attempt took none. */
  honoursCancel?: boolean;
  /** The tool runs as a task (tools/call answers a task id to poll): the attempt goes through the task client. */
  runsAsTask?: boolean;
}

/** What the server sees of the op: its trace id, and the stem of its idempotency keys. */
export function wireId(call: Pick<LogicalCall, 'opId' | 'traceId'>): string {
  return call.traceId ?? call.opId;
}

/** The client's part of an op's record: what its calls came to (the driver adds the op's id and times). */
export type ClientOpFields = Omit<OpRecord, 'opId' | 'startMs' | 'endMs' | 'argsKey' | 'mistake'>;

/** What one call came to, and what the model may read of its last answer. */
export interface CallOutcome {
  fields: ClientOpFields;
  /** fieldErrors of the final VALIDATION failure, for the model's self-correction. */
  fieldErrors?: FieldError[];
}

/** The session as policies use it (client/session.ts; unit tests pass a fake). */
export interface PolicySession {
  /** The live connection and its generation (pass the generation back to renew()). */
  get(): Promise<{ connection: { client: McpClient; attempts: AttemptRegistry }; generation: number }>;
  /** Replaces the session that `generation` referred to, unless someone already did. */
  renew(generation: number): Promise<void>;
}

export type ClientSettings = Profile['client'];

/** What the run gives a policy: the session, the profile's client settings, and where records go. */
export interface RunSetup {
  session: PolicySession;
  client: ClientSettings;
  /** The server offers the reference server's credential refresh (its target kind says so). */
  serverRefreshesCredentials: boolean;
  /** Model-side mistakes of the workload, when it plans them (the model may then correct its calls). */
  mistakes?: Pick<NonNullable<Profile['workload']['mistakes']>, 'maxCorrections'>;
  /** Side effects, key argument and status lookup of a tool (for a planned mistake or a corrected name too). */
  traitsOf(tool: string): Omit<LogicalCall, 'opId' | 'traceId' | 'tool' | 'args'>;
  /** The op's wire id when many workers drive one server (run/trace-key.ts); the op id itself without it. */
  traceIdOf?(opId: string): string;
  recordAttempt(attempt: AttemptRecord): void;
  recordBreakerEvent(event: BreakerEvent): void;
}

/** What one op's units and attempts use. */
export interface PolicyContext {
  session: PolicySession;
  client: ClientSettings;
  /** The op's own stream (backoff jitter). */
  random: RandomStream;
  recordAttempt(attempt: AttemptRecord): void;
}

/** Runs one planned op (its first call may carry a planned mistake) and says what came of it. */
export type OpRunner = (op: PlannedOp, random: RandomStream) => Promise<ClientOpFields>;

export interface ClientPolicy {
  readonly name: PolicyName;
  /** How its connects treat version negotiation (SDK 2.4 clients): see Sdk2ConnectionOptions. */
  readonly connection?: { reprobeBareFallback?: boolean };
  /** What it does when a subscriptions/listen stream ends (client/listener.ts); absent: as the SDK, nothing. */
  readonly listen?: ListenPolicy;
  /** Makes what the run's ops share (circuit breakers, the credential hook), once per run. */
  forRun(run: RunSetup): OpRunner;
}

export interface CredentialHook {
  /** Refreshes unless a refresh finished after `sinceMs` already; true when fresh credentials are in place. */
  refresh(sinceMs: number): Promise<boolean>;
}
