// One logical call of the workload and what came of it.
import type { AttemptRecord, OpOutcome } from '../core/history.ts';
import type { Category } from '../core/taxonomy.ts';
import type { RandomStream } from '../plan/random.ts';
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
}

export interface ClientPolicy {
  readonly name: 'resilient' | 'naive' | 'none';
  execute(call: LogicalCall, ctx: PolicyContext): Promise<OpResult>;
}
