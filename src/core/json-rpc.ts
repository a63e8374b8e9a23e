// A JSON-RPC error answered at the HTTP layer, before any request id is known (`id: null`), as the Streamable HTTP
// transport does. One envelope for the reference server's own refusals and the client-side edge faults.
import type { ServerResponse } from 'node:http';

/** The implementation-defined server error code the SDK transport uses for HTTP-level refusals. */
const JSON_RPC_SERVER_ERROR = -32000;

export function jsonRpcErrorBody(code: number, message: string): string {
  return JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null });
}

/** As a fetch Response (an edge fault answering instead of the server). */
export function jsonRpcError(
  status: number,
  message: string,
  headers: Record<string, string> = {},
  code = JSON_RPC_SERVER_ERROR,
): Response {
  return new Response(jsonRpcErrorBody(code, message), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

/** Written to a node:http response (the reference server's HTTP layer). */
export function writeJsonRpcError(res: ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(jsonRpcErrorBody(code, message));
}
