// One row of classifyError's table: what it recognises and the classification it gives. The facts every row
// looks at are read once per error (seenOf), so a row is a predicate and a constructor, nothing more.
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import type { AttemptHttp } from '../attempt-http.ts';
import type { Classified } from '../classified.ts';

export interface Seen {
  error: unknown;
  message: string;
  http: AttemptHttp;
  /** What threw it: the SDK's HTTP error, a JSON-RPC error, fetch's network failure (a TypeError), anything else. */
  from: 'http' | 'jsonrpc' | 'fetch' | 'other';
  /** An HTTP error's status: the SDK's, else the one the attempt saw. */
  status?: number;
  /** A 400's body, when it is a JSON-RPC error. */
  answer?: { code: number; message: string };
  /** A JSON-RPC error's code. */
  rpcCode?: number;
}

export interface ClassifyRule {
  /** The row's name, as tests and the table's doc call it. */
  name: string;
  matches(seen: Seen): boolean;
  classify(seen: Seen): Classified;
}

export function seenOf(error: unknown, http: AttemptHttp): Seen {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof StreamableHTTPError) {
    const status = error.code ?? http.status;
    return { error, message, http, from: 'http', status, answer: status === 400 ? jsonRpcErrorOf(message) : undefined };
  }
  if (error instanceof McpError) return { error, message, http, from: 'jsonrpc', rpcCode: error.code };
  return { error, message, http, from: error instanceof TypeError ? 'fetch' : 'other' };
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

/** 2026-07-28 UnsupportedProtocolVersion: the server does not serve the version the request carries. */
export const UNSUPPORTED_PROTOCOL_VERSION = -32022;
