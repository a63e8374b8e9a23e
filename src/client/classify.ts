// Turns whatever one attempt produced (a result, an SDK error, a transport error) into one classification the
// policies decide on. Decisions use class, HTTP status, errorCode and retryable: never message text alone,
// except where the SDK offers nothing else (its version check, documented below).
//
// Outcomes follow what the client can know. An attempt is `uncertain` (a given-up write ends `info`) unless the
// failure is a definite signal that nothing happened (a given-up write then ends `fail`):
//
// | what the client saw                                | code                            | retry | effect may exist |
// | -------------------------------------------------- | ------------------------------- | ----- | ---------------- |
// | isError result with a structured error             | the server's                    | its   | its `details.uncertain` (the server says whether the dependency can have acted) |
// | isError result without one                         | INTERNAL.UNSTRUCTURED           | no    | yes: nothing says it did not act |
// | HTTP 400 refusing MCP-Protocol-Version             | PROTO.BAD_PROTOCOL_VERSION      | no    | no: refused before dispatch |
// | HTTP 400 whose JSON-RPC error is -32022 (a 2026-only server refusing a 2025 request) | PROTO.VERSION_REFUSED | yes | no: refused before the tool ran; negotiate again |
// | HTTP 400 "Server not initialized" (a 2025-only server, SDK 1.32, given a request without a session) | PROTO.NOT_INITIALIZED | yes | no: refused before dispatch; a 2026 request needs no session, so retry as is |
// | HTTP 404 (session unknown)                         | PROTO.SESSION_NOT_FOUND         | yes   | no: never dispatched |
// | HTTP 413                                           | VALIDATION.PAYLOAD_TOO_LARGE    | no    | no: refused by size |
// | HTTP 429                                           | DEPENDENCY.RATE_LIMITED         | yes   | no: refused before handling |
// | any other HTTP 4xx                                 | PROTO.HTTP_<status>             | no    | no: a 4xx is a refusal |
// | an answer the transport refuses (wrong content type, unexpected status) | PROTO.HTTP_<status or UNKNOWN> | no | yes: it came after the server ran |
// | HTTP 5xx from the MCP endpoint (the server, or a gateway or edge before it) | EDGE.HTTP_<status> | yes | yes: a gateway's 5xx may come after the server ran the tool, and a 503 "before" looks the same; Retry-After changes nothing |
// | JSON-RPC -32700, -32600, -32601, -32602            | PROTO.JSONRPC_<n> / VALIDATION.UNKNOWN_TOOL | no | no: refused before the tool ran |
// | JSON-RPC -32022 UnsupportedProtocolVersion (2026)  | PROTO.VERSION_REFUSED           | yes   | no: refused before the tool ran; negotiate again |
// | JSON-RPC -32020 HeaderMismatch (2026-07-28)        | PROTO.HEADER_MISMATCH           | yes   | no: the Mcp-* headers disagree with the body, refused before dispatch |
// | other JSON-RPC error (-32603, server-defined)      | PROTO.JSONRPC_<n>               | no    | yes: thrown while the tool may have been running |
// | our request timeout (-32001)                       | LINK.TIMEOUT                    | yes   | yes: the tool may still run or be done |
// | connection closed with the request pending (-32000)| LINK.CLOSED                     | yes   | yes: the answer was lost with it |
// | fetch failed: ECONNREFUSED                         | LINK.REFUSED                    | yes   | no: no connection, nothing sent |
// | fetch failed: ENOTFOUND, EAI_AGAIN, EHOSTUNREACH, ENETUNREACH, connect timeout | LINK.UNREACHABLE | yes | no: nothing sent |
// | fetch failed: ECONNRESET, UND_ERR_SOCKET, EPIPE, or no code | LINK.RESET             | yes   | yes: the request may have reached the server |
// | transport not connected                            | LINK.NOT_CONNECTED              | yes   | no: nothing sent |
// | server/discover got a bare 400 (resilient: no fallback) | PROTO.DISCOVERY_AMBIGUOUS | yes   | no: nothing was called |
// | SDK 2.4 pinned: server/discover did not offer the pinned version | PROTO.PIN_NOT_OFFERED | yes | no: nothing was called; another replica may offer it |
// | protocol version refused at initialize             | PROTO.VERSION_UNSUPPORTED       | no    | no: no session, no call |
// | anything else                                      | INTERNAL.CLIENT                 | no    | yes |
//
// An MCP-edge fault "before" the server (a 5xx or 429 the edge makes up) is, to the client, the response it
// stands for: a 429 is a refusal, a 5xx is ambiguous. LINK failures keep the socket's code in `cause`.

import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { ProtocolVersionRejected } from '../core/protocol-mismatch.ts';
import { neverConnected, socketCause } from '../core/socket-cause.ts';
import { type AttemptCategory, toolErrorOf } from '../core/taxonomy.ts';
import type { AttemptHttp } from './attempt-context.ts';
import { AmbiguousDiscovery } from './discovery-tap.ts';

export interface Classified {
  ok: boolean;
  category?: AttemptCategory;
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
  /** The socket error code of a failed link (ECONNRESET, ECONNREFUSED, UND_ERR_SOCKET, ...). */
  cause?: string;
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
    // A server we did not write says what went wrong in its own words: keep them (trace.jsonl, the report).
    const text = textContentOf(result.content);
    return failure({
      category: 'INTERNAL',
      errorCode: 'INTERNAL.UNSTRUCTURED',
      retryable: false,
      uncertain: true,
      ...(text && { message: text }),
    });
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

/**
 * The JSON-RPC error in the body of an HTTP error answer, as the SDK's message carries it after the status line
 * ("Error POSTing to endpoint: {...}"); undefined when the body is not one.
 */
function jsonRpcErrorOf(message: string): { code: number; message: string } | undefined {
  const start = message.indexOf('{');
  if (start === -1) return undefined;
  try {
    const error = (JSON.parse(message.slice(start)) as { error?: { code?: unknown; message?: unknown } }).error;
    if (typeof error?.code !== 'number') return undefined;
    return { code: error.code, message: typeof error.message === 'string' ? error.message : '' };
  } catch {
    return undefined;
  }
}

/** The text parts of a tool result's content, joined (empty when it has none). */
function textContentOf(content: unknown): string {
  if (!Array.isArray(content)) return '';
  return content
    .filter((c): c is { type: 'text'; text: string } => c?.type === 'text' && typeof c.text === 'string')
    .map((c) => c.text)
    .join('\n');
}

/** JSON-RPC errors a server answers before it runs anything: parse error, invalid request, unknown method, bad params. */
/** 2026-07-28 HeaderMismatch: the Mcp-Method, Mcp-Name or Mcp-Param-* headers disagree with the body. */
const HEADER_MISMATCH = -32020;

/** 2026-07-28 UnsupportedProtocolVersion: the server does not serve the version the request carries. */
const UNSUPPORTED_PROTOCOL_VERSION = -32022;

const REFUSED_BEFORE_RUNNING: ReadonlySet<number> = new Set([-32700, -32600, -32601, -32602]);

export function classifyError(error: unknown, http: AttemptHttp = {}): Classified {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof AmbiguousDiscovery) {
    // Our own refusal of a fallback on no evidence: nothing was called, so probing again later is safe.
    return failure({
      category: 'PROTO',
      errorCode: 'PROTO.DISCOVERY_AMBIGUOUS',
      retryable: true,
      uncertain: false,
      message,
    });
  }
  if (/did not offer pinned protocol version \S+ via server\/discover/i.test(message)) {
    // SDK 2.4 pinned: the probe reached a server that did not offer the pinned version (a 2025-only one answers
    // server/discover with a 400). Nothing was called; in a fleet another replica may offer it, so probe again.
    return failure({
      category: 'PROTO',
      errorCode: 'PROTO.PIN_NOT_OFFERED',
      retryable: true,
      uncertain: false,
      renegotiate: true,
      message,
    });
  }
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
    const answer = status === 400 ? jsonRpcErrorOf(message) : undefined;
    if (answer?.code === UNSUPPORTED_PROTOCOL_VERSION) {
      // A 2026-07-28-only server (a replica of a newer release) refused this 2025-era request before running it:
      // the same refusal SDK 2.4 surfaces as a JSON-RPC error, here in the 400's body. A new connection negotiates
      // again, and may reach a replica that serves the version.
      return versionRefused(message);
    }
    if (answer?.code === -32000 && /server not initialized/i.test(answer.message)) {
      // SDK 1.32's answer to a request without a session (its only signal is this text under the generic -32000):
      // a 2026-07-28 request reached a 2025-only server, which wants initialize. Nothing ran, and the connection
      // holds no session to lose: retry as is (in a mixed fleet the next try may reach a 2026 replica).
      return failure({
        category: 'PROTO',
        errorCode: 'PROTO.NOT_INITIALIZED',
        retryable: true,
        uncertain: false,
        message,
      });
    }
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
      // The MCP endpoint's own HTTP answer, not a dependency's (those come back as an isError result). The server
      // may have run the tool before the failure was produced: only an idempotency key makes a retry safe.
      return failure({
        category: 'EDGE',
        errorCode: `EDGE.HTTP_${status}`,
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
    // A 4xx refuses the request; an answer the transport could not take (a status it did not expect, a wrong
    // content type) came from a server that may have run it.
    const refusal = status !== undefined && status >= 400 && status < 500;
    return failure({
      category: 'PROTO',
      errorCode: `PROTO.HTTP_${status !== undefined && status > 0 ? status : 'UNKNOWN'}`,
      retryable: false,
      uncertain: !refusal,
      message,
    });
  }
  if (error instanceof McpError) {
    if (error.code === -32001) {
      // Our request timed out (the SDK also uses -32001 for user aborts): the tool may still be running or done.
      return failure({ category: 'LINK', errorCode: 'LINK.TIMEOUT', retryable: true, uncertain: true, message });
    }
    if (error.code === -32000) {
      return failure({
        category: 'LINK',
        errorCode: 'LINK.CLOSED',
        retryable: true,
        uncertain: true,
        transportLost: true,
        message,
      });
    }
    if (error.code === UNSUPPORTED_PROTOCOL_VERSION) {
      // UnsupportedProtocolVersion (2026-07-28): the request was refused before it ran, for the version this
      // connection negotiated; a new connection negotiates again (its probe learns what the server serves).
      return versionRefused(message);
    }
    if (error.code === HEADER_MISMATCH) {
      // The routing headers disagree with the body (a proxy on the path changed them): refused before dispatch,
      // so another try (perhaps through another path) cannot run the tool twice.
      return failure({
        category: 'PROTO',
        errorCode: 'PROTO.HEADER_MISMATCH',
        retryable: true,
        uncertain: false,
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
      uncertain: !REFUSED_BEFORE_RUNNING.has(error.code),
      message,
    });
  }
  if (error instanceof TypeError) {
    // fetch's network failures are TypeErrors ("fetch failed") with the socket error as cause. A connection
    // that was never made never carried the request; any other drop may have.
    const cause = socketCause(error);
    const unsent = neverConnected(cause);
    const errorCode = unsent ? (cause === 'ECONNREFUSED' ? 'LINK.REFUSED' : 'LINK.UNREACHABLE') : 'LINK.RESET';
    return failure({
      category: 'LINK',
      errorCode,
      retryable: true,
      uncertain: !unsent,
      transportLost: true,
      message: cause ? `${message} (${cause})` : message,
      ...(cause && { cause }),
    });
  }
  if (/not connected/i.test(message)) {
    return failure({
      category: 'LINK',
      errorCode: 'LINK.NOT_CONNECTED',
      retryable: true,
      uncertain: false,
      transportLost: true,
      message,
    });
  }
  return failure({ category: 'INTERNAL', errorCode: 'INTERNAL.CLIENT', retryable: false, uncertain: true, message });
}

/** The request was refused for its protocol version before it ran: a new connection negotiates again. */
function versionRefused(message: string): Classified {
  return failure({
    category: 'PROTO',
    errorCode: 'PROTO.VERSION_REFUSED',
    retryable: true,
    uncertain: false,
    renegotiate: true,
    message,
  });
}
