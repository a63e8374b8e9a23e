// Rows for a JSON-RPC error (the SDK's McpError): our own timeout and closed connection, and the server's errors.
import { failure } from '../classified.ts';
import { versionRefused } from './negotiation.ts';
import { type ClassifyRule, type Seen, UNSUPPORTED_PROTOCOL_VERSION } from './rule.ts';

/** 2026-07-28 HeaderMismatch: the Mcp-Method, Mcp-Name or Mcp-Param-* headers disagree with the body. */
const HEADER_MISMATCH = -32020;

/** JSON-RPC errors a server answers before it runs anything: parse error, invalid request, unknown method, bad params. */
const REFUSED_BEFORE_RUNNING: ReadonlySet<number> = new Set([-32700, -32600, -32601, -32602]);

const rpc = (when: (code: number, s: Seen) => boolean) => (s: Seen) => s.rpcCode !== undefined && when(s.rpcCode, s);

export const JSON_RPC_RULES: ClassifyRule[] = [
  {
    // Our request timed out (the SDK also uses -32001 for user aborts): the tool may still be running or done.
    name: 'jsonrpc-timeout',
    matches: rpc((code) => code === -32001),
    classify: ({ message }) =>
      failure({ category: 'LINK', errorCode: 'LINK.TIMEOUT', retryable: true, uncertain: true, message }),
  },
  {
    name: 'jsonrpc-closed',
    matches: rpc((code) => code === -32000),
    classify: ({ message }) =>
      failure({
        category: 'LINK',
        errorCode: 'LINK.CLOSED',
        retryable: true,
        uncertain: true,
        transportLost: true,
        message,
      }),
  },
  {
    // UnsupportedProtocolVersion (2026-07-28): the request was refused before it ran, for the version this
    // connection negotiated; a new connection negotiates again (its probe learns what the server serves).
    name: 'jsonrpc-version-refused',
    matches: rpc((code) => code === UNSUPPORTED_PROTOCOL_VERSION),
    classify: ({ message }) => versionRefused(message),
  },
  {
    // The routing headers disagree with the body (a proxy on the path changed them): refused before dispatch,
    // so another try (perhaps through another path) cannot run the tool twice.
    name: 'jsonrpc-header-mismatch',
    matches: rpc((code) => code === HEADER_MISMATCH),
    classify: ({ message }) =>
      failure({ category: 'PROTO', errorCode: 'PROTO.HEADER_MISMATCH', retryable: true, uncertain: false, message }),
  },
  {
    name: 'jsonrpc-unknown-tool',
    matches: rpc((code, s) => code === -32602 && /tool/i.test(s.message)),
    classify: ({ message }) =>
      failure({
        category: 'VALIDATION',
        errorCode: 'VALIDATION.UNKNOWN_TOOL',
        retryable: false,
        uncertain: false,
        message,
      }),
  },
  {
    name: 'jsonrpc-other',
    matches: rpc(() => true),
    classify: ({ message, rpcCode = 0 }) =>
      failure({
        category: 'PROTO',
        errorCode: `PROTO.JSONRPC_${Math.abs(rpcCode)}`,
        retryable: false,
        uncertain: !REFUSED_BEFORE_RUNNING.has(rpcCode),
        message,
      }),
  },
];
