// Fakes for the policy units: a session whose tool calls follow a script (no server, no sockets) and the pieces
// of one op. Tests put the run clock on vitest's fake time (`vi.mock` of core/clock in the test file), so
// waits and timeouts are exact.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { ToolCallResult } from '../../../src/client/attempt-outcome.ts';
import { AttemptRegistry } from '../../../src/client/attempt-registry.ts';
import { OpTally } from '../../../src/client/op-tally.ts';
import { oneKey } from '../../../src/client/policies/compose.ts';
import type { ClientSettings, LogicalCall, PolicySession } from '../../../src/client/policy.ts';
import type { OpRun } from '../../../src/client/units/unit.ts';
import type { AttemptRecord, DecisionRecord } from '../../../src/core/history.ts';
import { RandomStream } from '../../../src/core/random.ts';
import type { Category, ToolError } from '../../../src/core/taxonomy.ts';
import { TRACE_META_KEY } from '../../../src/core/wire.ts';

export interface ToolCall {
  name: string;
  args: Record<string, unknown>;
  /** The trace id the call carried in `_meta`. */
  traceId?: unknown;
  /** The SDK request timeout the client asked for. */
  timeoutMs?: number;
  atMs: number;
  generation: number;
}

/** A result, an error the SDK would throw, or `hang` (no answer: the SDK's timeout ends the call). */
export type Answer = ToolCallResult | Error | 'hang';

/** An answer that takes `afterMs` to come (the SDK's timeout still ends the call first if it is shorter). */
export interface Late {
  afterMs: number;
  answer: Answer;
}

export const ok = (structuredContent: unknown = { ok: true }): ToolCallResult => ({
  content: [{ type: 'text', text: JSON.stringify(structuredContent) }],
  structuredContent,
});

export function toolError(
  category: Category,
  errorCode: string,
  extra: Partial<Omit<ToolError, 'category' | 'errorCode'>> = {},
): ToolCallResult {
  const error: ToolError = {
    category,
    errorCode,
    message: errorCode,
    retryable: false,
    requestId: 'req-test',
    ...extra,
  };
  return { isError: true, content: [{ type: 'text', text: error.message }], structuredContent: error };
}

/** A session whose tool calls are answered by `answer` (by call, in order). Renewal bumps the generation. */
export class FakeSession implements PolicySession {
  readonly calls: ToolCall[] = [];
  readonly renewed: number[] = [];
  generation = 0;

  constructor(
    private readonly answer: (call: ToolCall, index: number) => Answer | Late,
    /** What tools/list answers. */
    private readonly tools: string[] = [],
  ) {}

  /** Calls of one tool (executions, or status lookups). */
  callsOf(name: string): ToolCall[] {
    return this.calls.filter((c) => c.name === name);
  }

  async get() {
    const generation = this.generation;
    const callTool = (
      params: { name: string; arguments?: Record<string, unknown>; _meta?: Record<string, unknown> },
      _schema?: unknown,
      options?: { timeout?: number },
    ) => this.call(params, options?.timeout, generation);
    const client = {
      callTool,
      listTools: async () => ({ tools: this.tools.map((name) => ({ name })) }),
    } as unknown as Pick<Client, 'callTool' | 'listTools'>;
    return { connection: { client, attempts: new AttemptRegistry() }, generation };
  }

  async renew(generation: number): Promise<void> {
    this.renewed.push(generation);
    if (generation === this.generation) this.generation++;
  }

  private call(
    params: { name: string; arguments?: Record<string, unknown>; _meta?: Record<string, unknown> },
    timeoutMs: number | undefined,
    generation: number,
  ): Promise<ToolCallResult> {
    const call = {
      name: params.name,
      args: params.arguments ?? {},
      traceId: params._meta?.[TRACE_META_KEY],
      timeoutMs,
      atMs: Date.now(),
      generation,
    };
    const given = this.answer(call, this.calls.length);
    this.calls.push(call);
    const { afterMs, answer } = typeof given === 'object' && 'afterMs' in given ? given : { afterMs: 0, answer: given };
    return new Promise((resolve, reject) => {
      // As the SDK does: on its request timeout the call fails with RequestTimeout (and is cancelled).
      const timer =
        timeoutMs === undefined
          ? undefined
          : setTimeout(
              () => reject(new McpError(ErrorCode.RequestTimeout, 'Request timed out', { timeout: timeoutMs })),
              timeoutMs,
            );
      if (answer === 'hang') return;
      const settle = () => {
        clearTimeout(timer);
        if (answer instanceof Error) reject(answer);
        else resolve(answer);
      };
      if (afterMs > 0) setTimeout(settle, afterMs);
      else settle();
    });
  }
}

export const SETTINGS: ClientSettings = {
  policy: 'resilient',
  attemptTimeoutMs: 1000,
  deadlineMs: 10_000,
  maxAttempts: 5,
  backoff: { initialMs: 0, maxMs: 1 },
  credentialRefresh: true,
};

const PAYMENT: LogicalCall = {
  opId: 'op-00000',
  tool: 'create_payment',
  args: { amount_cents: 100 },
  sideEffecting: true,
  idempotencyArg: 'idempotency_key',
  statusLookup: { tool: 'get_payment_status', keyArg: 'idempotency_key' },
};

export const SEARCH: LogicalCall = { opId: 'op-00001', tool: 'search_documents', args: {}, sideEffecting: false };

/** One op's call, its recorded attempts and the backoff draws of its stream. */
export function opRun(
  session: PolicySession,
  options: { call?: LogicalCall; client?: Partial<ClientSettings> } = {},
): { op: OpRun; attempts: AttemptRecord[]; draws: DecisionRecord[] } {
  const call = options.call ?? PAYMENT;
  const attempts: AttemptRecord[] = [];
  const draws: DecisionRecord[] = [];
  const op: OpRun = {
    call,
    ctx: {
      session,
      client: { ...SETTINGS, ...options.client },
      random: new RandomStream(1, `client/${call.opId}`, (d) => draws.push(d)),
      recordAttempt: (a) => attempts.push(a),
    },
    tally: new OpTally(call),
    key: oneKey(call),
    attemptsBefore: 0,
    opTool: call.tool,
  };
  return { op, attempts, draws };
}
