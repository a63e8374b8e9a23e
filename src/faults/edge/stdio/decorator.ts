// The MCP-edge seam for stdio: a Transport decorator on the client side (the design's counterpart of the fetch
// middleware). Active rules apply in the order they were added; the first one that fires on a request (seeded
// draw) tags it with its directive, which the stdio server's output decorator carries out on its real stdout; each
// request a rule tags is one of its hits.
// It also names transport failures clearly: when the SDK's ReadBuffer refuses a line over its limit it closes the
// transport, and every request in flight is answered here with that cause instead of a bare "Connection closed".
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ErrorCode,
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type MessageExtraInfo,
} from '@modelcontextprotocol/sdk/types.js';
import { HitCounter } from '../../../core/hit-counter.ts';
import { RequestKeys, traceOfMessage } from '../../../core/logical-key.ts';
import type { RandomStream } from '../../../core/random.ts';
import { STDIO_FAULT_META, type StdioFaultDirective } from './directive.ts';

export interface StdioRule {
  id: string;
  /** JSON-RPC methods it touches; empty means every request. */
  methods: readonly string[];
  probability: number;
  random: RandomStream;
  directive: StdioFaultDirective;
}

/** What the client saw on its stdio transports, by cause. */
export interface StdioTally {
  /** Requests tagged with a directive, by directive kind. */
  tagged: Record<string, number>;
  /** Lines the reader could not parse (onerror, parsing continues). */
  malformedLines: number;
  /** Lines over the framing limit (the SDK closed the transport and killed the child). */
  oversizedLines: number;
  /** Other transport errors. */
  otherErrors: number;
  /** The first other error's message, for the report. */
  otherSample?: string;
}

const OVERSIZE = /ReadBuffer exceeded maximum size/;

export class StdioEdgeController {
  private rules: StdioRule[] = [];
  /** Logical keys of the requests (every traced request counts, rules or not). */
  readonly keys = new RequestKeys();
  readonly tally: StdioTally = { tagged: {}, malformedLines: 0, oversizedLines: 0, otherErrors: 0 };
  /** Requests each rule tagged, by rule id (kept after the rule is removed). */
  readonly hits = new HitCounter();

  add(rule: StdioRule): void {
    this.rules.push(rule);
  }

  remove(id: string): void {
    this.rules = this.rules.filter((r) => r.id !== id);
  }

  get active(): number {
    return this.rules.length;
  }

  /**
   * The directive for this outgoing request, if a rule fires (one draw per applicable rule, in order), drawn under
   * the request's logical key (op, attempt, request) when it carries a trace id, else in arrival order.
   */
  pick(method: string, key: string | undefined): StdioFaultDirective | undefined {
    for (const rule of this.rules) {
      if (rule.methods.length > 0 && !rule.methods.includes(method)) continue;
      const random = key === undefined ? rule.random : rule.random.keyed(key);
      if (random.chance(`fires ${method}`, rule.probability)) {
        this.hits.count(rule.id);
        return rule.directive;
      }
    }
    return undefined;
  }

  wrap = (inner: Transport): Transport => new StdioEdgeTransport(inner, this);

  noteError(error: Error): void {
    if (OVERSIZE.test(error.message)) this.tally.oversizedLines++;
    else if (error instanceof SyntaxError || error.name === 'ZodError') this.tally.malformedLines++;
    else {
      this.tally.otherErrors++;
      this.tally.otherSample ??= error.message.slice(0, 120);
    }
  }
}

class StdioEdgeTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  /** Requests sent and not answered yet. */
  private readonly pending = new Set<string | number>();

  constructor(
    private readonly inner: Transport,
    private readonly controller: StdioEdgeController,
  ) {
    const before = inner.onerror;
    inner.onerror = (error) => {
      before?.(error);
      controller.noteError(error);
      this.onerror?.(error);
      if (OVERSIZE.test(error.message))
        this.failPending(`stdio framing: ${error.message}; the SDK closed the transport`);
    };
    inner.onclose = () => this.onclose?.();
    inner.onmessage = (message, extra) => {
      if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message))
        this.pending.delete(message.id as string | number);
      this.onmessage?.(message, extra);
    };
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  /** The negotiated version (the Client tells its transport after initialize). */
  protocolVersion?: string;

  setProtocolVersion = (version: string): void => {
    this.protocolVersion = version;
    this.inner.setProtocolVersion?.(version);
  };

  start(): Promise<void> {
    return this.inner.start();
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (!isJSONRPCRequest(message)) return this.inner.send(message, options);
    this.pending.add(message.id);
    const key = this.controller.keys.next(traceOfMessage(message));
    const directive = this.controller.active > 0 ? this.controller.pick(message.method, key) : undefined;
    if (!directive) return this.inner.send(message, options);
    const tally = this.controller.tally.tagged;
    tally[directive.kind] = (tally[directive.kind] ?? 0) + 1;
    const params = message.params ?? {};
    const tagged: JSONRPCMessage = {
      ...message,
      params: { ...params, _meta: { ...(params._meta as object | undefined), [STDIO_FAULT_META]: directive } },
    };
    return this.inner.send(tagged, options);
  }

  /** Answers every request in flight with the transport's real cause (the SDK would say "Connection closed"). */
  private failPending(message: string): void {
    const ids = [...this.pending];
    this.pending.clear();
    for (const id of ids) {
      this.onmessage?.({ jsonrpc: '2.0', id, error: { code: ErrorCode.ConnectionClosed, message } });
    }
  }
}
