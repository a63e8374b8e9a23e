// Turns whatever one attempt produced (a result, an SDK error, a transport error) into one classification the
// policies decide on. Decisions use class, HTTP status, errorCode and retryable: never message text alone,
// except where the SDK offers nothing else (fetch's TypeError, documented below).

import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { ProtocolVersionRejected } from '../core/protocol-mismatch.ts';
import { type Category, toolErrorOf } from '../core/taxonomy.ts';
import type { AttemptHttp } from './attempt-context.ts';

export interface Classified {
  ok: boolean;
  category?: Category;
  errorCode?: string;
  retryable: boolean;
  retryAfterMs?: number;
  /** The attempt may have taken effect although the client saw a failure. */
  uncertain: boolean;
  /** The session is gone (404): a new session must be initialized before retrying. */
  sessionLost: boolean;
  /** The connection or stream is unusable: reconnect before retrying. */
  transportLost: boolean;
  /** The server refused this session's protocol version: the next op should negotiate on a new session. */
  renegotiate?: boolean;
  message?: string;
}

const failure = (f: Omit<Classified, 'ok' | 'sessionLost' | 'transportLost'> & Partial<Classified>): Classified => ({
  ok: false,
  sessionLost: false,
  transportLost: false,
  ...f,
});

export function classifyResult(result: {
  isError?: boolean;
  structuredContent?: unknown;
  content?: unknown;
}): Classified {
  if (!result.isError)
    return { ok: true, retryable: false, uncertain: false, sessionLost: false, transportLost: false };
  const error = toolErrorOf(result);
  if (!error) {
    return failure({ category: 'INTERNAL', errorCode: 'INTERNAL.UNSTRUCTURED', retryable: false, uncertain: false });
  }
  return failure({
    category: error.category,
    errorCode: error.errorCode,
    retryable: error.retryable,
    retryAfterMs: error.retryAfterMs,
    uncertain: error.details?.uncertain === true,
    message: error.message,
  });
}

export function classifyError(error: unknown, http: AttemptHttp = {}): Classified {
  const message = error instanceof Error ? error.message : String(error);
  // Version negotiation failed: our own check, or the SDK's (a plain Error, so its text is all there is).
  if (error instanceof ProtocolVersionRejected || /protocol version is not supported/i.test(message)) {
    return failure({
      category: 'PROTO',
      errorCode: 'PROTO.VERSION_UNSUPPORTED',
      retryable: false,
      uncertain: false,
      message,
    });
  }
  if (error instanceof StreamableHTTPError) {
    const status = error.code ?? http.status;
    if (status === 400 && /unsupported protocol version/i.test(message)) {
      // The MCP-Protocol-Version header was refused (the request never ran): no retry on this session.
      return failure({
        category: 'PROTO',
        errorCode: 'PROTO.BAD_PROTOCOL_VERSION',
        retryable: false,
        uncertain: false,
        renegotiate: true,
        message,
      });
    }
    if (status === 404) {
      return failure({
        category: 'PROTO',
        errorCode: 'PROTO.SESSION_NOT_FOUND',
        retryable: true,
        uncertain: false,
        sessionLost: true,
        message,
      });
    }
    if (status === 429) {
      return failure({
        category: 'DEPENDENCY',
        errorCode: 'DEPENDENCY.RATE_LIMITED',
        retryable: true,
        retryAfterMs: http.retryAfterMs,
        uncertain: false,
        message,
      });
    }
    if (status !== undefined && status >= 500) {
      // The server may have run the tool before the failure was produced: only an idempotency key makes a retry safe.
      return failure({
        category: 'DEPENDENCY',
        errorCode: 'DEPENDENCY.UNAVAILABLE',
        retryable: true,
        retryAfterMs: http.retryAfterMs,
        uncertain: true,
        message,
      });
    }
    if (status === 413) {
      return failure({
        category: 'VALIDATION',
        errorCode: 'VALIDATION.PAYLOAD_TOO_LARGE',
        retryable: false,
        uncertain: false,
        message,
      });
    }
    return failure({
      category: 'PROTO',
      errorCode: `PROTO.HTTP_${status ?? 'UNKNOWN'}`,
      retryable: false,
      uncertain: false,
      message,
    });
  }
  if (error instanceof McpError) {
    if (error.code === -32001) {
      // Request timed out (the SDK also uses -32001 for user aborts): the tool may still be running or done.
      return failure({
        category: 'DEPENDENCY',
        errorCode: 'DEPENDENCY.TIMEOUT',
        retryable: true,
        uncertain: true,
        message,
      });
    }
    if (error.code === -32000) {
      return failure({
        category: 'DEPENDENCY',
        errorCode: 'DEPENDENCY.CONNECTION_CLOSED',
        retryable: true,
        uncertain: true,
        transportLost: true,
        message,
      });
    }
    if (error.code === -32602 && /tool/i.test(message)) {
      return failure({
        category: 'VALIDATION',
        errorCode: 'VALIDATION.UNKNOWN_TOOL',
        retryable: false,
        uncertain: false,
        message,
      });
    }
    return failure({
      category: 'PROTO',
      errorCode: `PROTO.JSONRPC_${Math.abs(error.code)}`,
      retryable: false,
      uncertain: false,
      message,
    });
  }
  if (error instanceof TypeError) {
    // fetch's network failures are TypeErrors ("fetch failed") with the socket error as cause. A refused
    // connection never carried the request; any other drop may have.
    const code = (error as { cause?: { code?: string } }).cause?.code;
    const refused = code === 'ECONNREFUSED';
    return failure({
      category: 'DEPENDENCY',
      errorCode: 'DEPENDENCY.NETWORK',
      retryable: true,
      uncertain: !refused,
      transportLost: true,
      message,
    });
  }
  if (/not connected/i.test(message)) {
    return failure({
      category: 'DEPENDENCY',
      errorCode: 'DEPENDENCY.NOT_CONNECTED',
      retryable: true,
      uncertain: false,
      transportLost: true,
      message,
    });
  }
  return failure({ category: 'INTERNAL', errorCode: 'INTERNAL.CLIENT', retryable: false, uncertain: true, message });
}
