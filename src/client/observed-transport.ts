// A client we did not write (a client module) is opaque: its retries happen inside it. The harness sees them on the
// wire instead. Every transport handed to the module is wrapped here: each tools/call request sent during an op is
// one attempt of that op (the op is found by async context, so the user's wrapper needs no help), tagged with the
// op's trace id and attempt number in _meta, and ended by its response, its error, the client's own cancellation
// (a timeout), or the transport closing. A (re)connect made during an op that fails before the server answers
// (connection refused, a server that would not start) is an attempt too, one that never got out: a built-in
// policy's attempt counts its refused connect the same way. Each ended attempt is classified and recorded as the
// built-in policies' attempts are, so every metric reads the same.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ErrorCode,
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  McpError,
  type MessageExtraInfo,
} from '@modelcontextprotocol/sdk/types.js';
import { epochMs } from '../core/clock.ts';
import type { AttemptRecord } from '../core/history.ts';
import { ATTEMPT_META_KEY, TRACE_META_KEY } from '../core/wire.ts';
import { visibleText } from './attempt.ts';
import type { AttemptHttp } from './attempt-http.ts';
import type { ToolCallResult } from './attempt-outcome.ts';
import { AttemptRegistry } from './attempt-registry.ts';
import { type Classified, failureFields } from './classified.ts';
import { classifyError, classifyResult } from './classify.ts';
import type { OpTally } from './op-tally.ts';

/** The op a module's call belongs to, while the harness waits for it. */
export interface ObservedOp {
  opId: string;
  /** The op's tool (an attempt that never got out names it too). */
  tool: string;
  /** The op's trace id on the wire (the op id unless many workers drive one server). */
  traceId: string;
  tally: OpTally;
  /** Attempts seen so far. */
  sent: number;
  /** Attempts not ended yet, by their end function. */
  open: Set<(classified: Classified, result?: ToolCallResult, error?: unknown) => void>;
}

const current = new AsyncLocalStorage<ObservedOp>();

export function runInOp<T>(op: ObservedOp, fn: () => Promise<T>): Promise<T> {
  return current.run(op, fn);
}

type Pending = (classified: Classified, result?: ToolCallResult, error?: unknown) => void;

export class ObservedTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  private readonly pending = new Map<string | number, Pending>();
  private readonly attempts = new AttemptRegistry();
  private readonly inner: Transport & { protocolVersion?: string };

  constructor(
    /** The transport to wrap, its HTTP requests found in the registry it is given. */
    newInner: (attempts: AttemptRegistry) => Transport & { protocolVersion?: string },
    private readonly recordAttempt: (attempt: AttemptRecord) => void,
  ) {
    const inner = newInner(this.attempts);
    this.inner = inner;
    inner.onerror = (error) => this.onerror?.(error);
    inner.onclose = () => {
      for (const end of [...this.pending.values()])
        end(classifyError(new McpError(ErrorCode.ConnectionClosed, 'Connection closed')));
      this.onclose?.();
    };
    inner.onmessage = (message, extra) => {
      if (isJSONRPCResultResponse(message)) {
        const result = message.result as ToolCallResult;
        this.pending.get(message.id)?.(classifyResult(result), result);
      } else if (isJSONRPCErrorResponse(message) && message.id !== undefined) {
        const { code, message: text, data } = message.error;
        const error = new McpError(code, text, data);
        this.pending.get(message.id)?.(classifyError(error), undefined, error);
      }
      this.onmessage?.(message, extra);
    };
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  setProtocolVersion = (version: string): void => {
    this.inner.setProtocolVersion?.(version);
  };

  start(): Promise<void> {
    return this.notGotOut(() => this.inner.start());
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (isJSONRPCNotification(message) && message.method === 'notifications/cancelled') {
      // The client gave up on the request (its own timeout): the attempt ends, uncertain, as our timeouts do.
      const id = (message.params as { requestId?: string | number } | undefined)?.requestId;
      const end = id === undefined ? undefined : this.pending.get(id);
      end?.(classifyError(new McpError(ErrorCode.RequestTimeout, 'the client cancelled the request (timeout)')));
    }
    const op = current.getStore();
    if (op && isJSONRPCRequest(message) && message.method === 'initialize')
      return this.notGotOut(() => this.inner.send(message, options));
    if (!op || !isJSONRPCRequest(message) || message.method !== 'tools/call') return this.inner.send(message, options);
    const attempt = ++op.sent;
    const params = (message.params ?? {}) as { name?: string; arguments?: Record<string, unknown>; _meta?: object };
    const tagged = {
      ...message,
      params: { ...params, _meta: { ...params._meta, [TRACE_META_KEY]: op.traceId, [ATTEMPT_META_KEY]: attempt } },
    };
    const http: AttemptHttp = {};
    const startMs = epochMs();
    let ended = false;
    const end: Pending = (classified, result, error) => {
      if (ended) return;
      ended = true;
      this.pending.delete(message.id);
      op.open.delete(end);
      const record: AttemptRecord = {
        opId: op.opId,
        attempt,
        startMs,
        endMs: epochMs(),
        ok: classified.ok,
        tool: params.name,
        ...(params.arguments && { args: params.arguments }),
        ...(http.status !== undefined && { httpStatus: http.status }),
        visible: visibleText(result, error),
        ...failureFields(classified),
      };
      this.recordAttempt(record);
      op.tally.record({
        type: 'attempt',
        outcome: { classified, result, generation: 0, visible: record.visible ?? '', record },
      });
    };
    this.pending.set(message.id, end);
    op.open.add(end);
    try {
      await this.attempts.during(op.traceId, attempt, http, () => this.inner.send(tagged, options));
    } catch (error) {
      end(classifyError(error, http), undefined, error);
      throw error;
    }
  }

  /** Starting the transport or sending initialize, during an op: a failure is one attempt of it that never got out. */
  private async notGotOut(step: () => Promise<void>): Promise<void> {
    const op = current.getStore();
    const startMs = epochMs();
    try {
      await step();
    } catch (error) {
      if (op) recordNotGotOut(op, this.recordAttempt, startMs, error);
      throw error;
    }
  }
}

/** One failed attempt of the op that never reached the server (a refused connect, a call refused before sending). */
export function recordNotGotOut(
  op: ObservedOp,
  recordAttempt: (attempt: AttemptRecord) => void,
  startMs: number,
  error: unknown,
): void {
  const classified = { ...classifyError(error), uncertain: false };
  const record: AttemptRecord = {
    opId: op.opId,
    attempt: ++op.sent,
    startMs,
    endMs: epochMs(),
    ok: false,
    tool: op.tool,
    category: classified.category,
    errorCode: classified.errorCode,
    retryable: classified.retryable,
    uncertain: false,
    message: classified.message?.slice(0, 300),
  };
  recordAttempt(record);
  op.tally.record({ type: 'attempt', outcome: { classified, generation: 0, visible: '', record } });
}
