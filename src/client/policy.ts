// One logical call of the workload and what came of it.
import type { CircuitBreakerPolicy } from 'cockatiel';
import type { AttemptRecord, OpOutcome } from '../core/history.ts';
import type { RandomStream } from '../core/random.ts';
import type { Category, FieldError } from '../core/taxonomy.ts';
import type { Session } from './session.ts';

export interface LogicalCall {
  opId: string;
  tool: string;
  args: Record<string, unknown>;
  sideEffecting: boolean;
  /** Argument that carries the idempotency key, for side-effecting tools. */
  idempotencyArg?: string;
  /** How to ask whether an uncertain side effect happened (by idempotency key). */
  statusLookup?: { tool: string; keyArg: string };
  /** The tool undoes nothing but promises no effect once cancelled: a timed-out (and so cancelled) attempt took none. */
  honoursCancel?: boolean;
}

export interface OpResult {
  outcome: OpOutcome;
  attempts: number;
  failedAttempts: number;
  lookups: number;
  category?: Category;
  errorCode?: string;
  /** Model-visible text of what the client got back (for the leak scan). */
  visible?: string;
  /** The idempotency key(s) the op used, for attribution by argument values. */
  keys: string[];
  /** Lookups that found the effect (re-executions avoided). */
  lookupsFound?: number;
  authRefreshes?: number;
  /** The circuit breaker refused a call of this op. */
  circuitOpen?: boolean;
  /** fieldErrors of the final VALIDATION failure, for the model's self-correction. */
  fieldErrors?: FieldError[];
}

export interface ClientTimeouts {
  attemptTimeoutMs: number;
  deadlineMs: number;
}

export interface PolicyContext {
  session: Session;
  random: RandomStream;
  timeouts: ClientTimeouts;
  maxAttempts: number;
  backoff: { initialMs: number; maxMs: number };
  recordAttempt(attempt: AttemptRecord): void;
  /** Circuit breaker shared by the run's ops (per tool); absent when the profile turns it off. */
  breaker?: CircuitBreakerPolicy;
  /** Renews the server's credentials after an AUTH failure; absent for policies that never refresh. */
  credentials?: CredentialHook;
}

export interface CredentialHook {
  /** Refreshes unless a refresh finished after `sinceMs` already; true when fresh credentials are in place. */
  refresh(sinceMs: number): Promise<boolean>;
}

export interface ClientPolicy {
  readonly name: 'resilient' | 'naive' | 'none';
  execute(call: LogicalCall, ctx: PolicyContext): Promise<OpResult>;
}
