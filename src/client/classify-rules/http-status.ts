// Rows for an HTTP error answer of the MCP endpoint (the SDK's StreamableHTTPError), decided by status and, for a
// 400, the JSON-RPC error in its body.
import { failure } from '../classified.ts';
import { versionRefused } from './negotiation.ts';
import { type ClassifyRule, type Seen, UNSUPPORTED_PROTOCOL_VERSION } from './rule.ts';

const http = (when: (s: Seen) => boolean) => (s: Seen) => s.from === 'http' && when(s);

export const HTTP_STATUS_RULES: ClassifyRule[] = [
  {
    // A 2026-07-28-only server (a replica of a newer release) refused this 2025-era request before running it:
    // the same refusal SDK 2.4 surfaces as a JSON-RPC error, here in the 400's body. A new connection negotiates
    // again, and may reach a replica that serves the version.
    name: 'http-version-refused',
    matches: http((s) => s.answer?.code === UNSUPPORTED_PROTOCOL_VERSION),
    classify: ({ message }) => versionRefused(message),
  },
  {
    // SDK 1.32's answer to a request without a session (its only signal is this text under the generic -32000):
    // a 2026-07-28 request reached a 2025-only server, which wants initialize. Nothing ran, and the connection
    // holds no session to lose: retry as is (in a mixed fleet the next try may reach a 2026 replica).
    name: 'http-not-initialized',
    matches: http((s) => s.answer?.code === -32000 && /server not initialized/i.test(s.answer.message)),
    classify: ({ message }) =>
      failure({ category: 'PROTO', errorCode: 'PROTO.NOT_INITIALIZED', retryable: true, uncertain: false, message }),
  },
  {
    // The MCP-Protocol-Version header was refused (the request never ran): no retry on this session.
    name: 'http-bad-protocol-version',
    matches: http((s) => s.status === 400 && /unsupported protocol version/i.test(s.message)),
    classify: ({ message }) =>
      failure({
        category: 'PROTO',
        errorCode: 'PROTO.BAD_PROTOCOL_VERSION',
        retryable: false,
        uncertain: false,
        renegotiate: true,
        message,
      }),
  },
  {
    name: 'http-session-not-found',
    matches: http((s) => s.status === 404),
    classify: ({ message }) =>
      failure({
        category: 'PROTO',
        errorCode: 'PROTO.SESSION_NOT_FOUND',
        retryable: true,
        uncertain: false,
        sessionLost: true,
        message,
      }),
  },
  {
    name: 'http-rate-limited',
    matches: http((s) => s.status === 429),
    classify: ({ message, http }) =>
      failure({
        category: 'DEPENDENCY',
        errorCode: 'DEPENDENCY.RATE_LIMITED',
        retryable: true,
        retryAfterMs: http.retryAfterMs,
        uncertain: false,
        message,
      }),
  },
  {
    // The MCP endpoint's own HTTP answer, not a dependency's (those come back as an isError result). The server
    // may have run the tool before the failure was produced: only an idempotency key makes a retry safe.
    name: 'http-5xx',
    matches: http((s) => s.status !== undefined && s.status >= 500),
    classify: ({ message, http, status }) =>
      failure({
        category: 'EDGE',
        errorCode: `EDGE.HTTP_${status}`,
        retryable: true,
        retryAfterMs: http.retryAfterMs,
        uncertain: true,
        message,
      }),
  },
  {
    name: 'http-payload-too-large',
    matches: http((s) => s.status === 413),
    classify: ({ message }) =>
      failure({
        category: 'VALIDATION',
        errorCode: 'VALIDATION.PAYLOAD_TOO_LARGE',
        retryable: false,
        uncertain: false,
        message,
      }),
  },
  {
    // A 4xx refuses the request; an answer the transport could not take (a status it did not expect, a wrong
    // content type) came from a server that may have run it.
    name: 'http-other',
    matches: http(() => true),
    classify: ({ message, status }) =>
      failure({
        category: 'PROTO',
        errorCode: `PROTO.HTTP_${status !== undefined && status > 0 ? status : 'UNKNOWN'}`,
        retryable: false,
        uncertain: !(status !== undefined && status >= 400 && status < 500),
        message,
      }),
  },
];
