// classifyError's table: the rows in the order they are tried, first match wins. Rows come from the files beside
// this one (a family each); the last row matches anything.
//
// Outcomes follow what the client can know. An attempt is `uncertain` (a given-up write ends `info`) unless the
// failure is a definite signal that nothing happened (a given-up write then ends `fail`):
//
// | what the client saw                                | code                            | retry | effect may exist |
// | -------------------------------------------------- | ------------------------------- | ----- | ---------------- |
// | the answer's SSE stream failed before the answer, with no event id to resume from (client onerror) | LINK.ANSWER_LOST | yes | yes: the server may have acted; the SDK would wait for its timeout |
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
// | a task a poll answered `cancelled` (task client)   | RESOURCE.TASK_CANCELLED         | no    | no: the server says it stopped before its effect; someone meant it to stop |
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

import { failure } from '../classified.ts';
import { HTTP_STATUS_RULES } from './http-status.ts';
import { JSON_RPC_RULES } from './json-rpc.ts';
import { ANSWER_LOST_RULE, LINK_RULES } from './link.ts';
import { NEGOTIATION_RULES } from './negotiation.ts';
import type { ClassifyRule } from './rule.ts';
import { TASK_RULES } from './task.ts';

const ANYTHING_ELSE: ClassifyRule = {
  name: 'anything-else',
  matches: () => true,
  classify: ({ message }) =>
    failure({ category: 'INTERNAL', errorCode: 'INTERNAL.CLIENT', retryable: false, uncertain: true, message }),
};

export const CLASSIFY_RULES: readonly ClassifyRule[] = [
  ANSWER_LOST_RULE,
  ...NEGOTIATION_RULES,
  ...HTTP_STATUS_RULES,
  ...JSON_RPC_RULES,
  ...LINK_RULES,
  ...TASK_RULES,
  ANYTHING_ELSE,
];
