// The SDK 2.4 front end on node:http: createMcpHandler with a fresh McpServer per request (the 2026-07-28 wire
// has no session), wrapped by toNodeHandler. For the dual front end, classify() says which era a request belongs
// to (the SDK's own isLegacyRequest), reading the body once and handing it on parsed, since a Node request
// stream can be read only once.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { toNodeHandler, toWebRequest } from '@modelcontextprotocol/node';
import { createMcpHandler, DEFAULT_MAX_REQUEST_BODY_SIZE, isLegacyRequest } from '@modelcontextprotocol/server';
import { writeJsonRpcError } from '../../core/json-rpc.ts';
import type { ServerRuntime } from '../runtime.ts';
import { createModernMcpServer } from './mcp-server.ts';

export interface ModernFront {
  serve(req: IncomingMessage, res: ServerResponse, parsedBody?: unknown): Promise<void>;
  /** Whether the request is 2025-era traffic, and its body parsed (undefined for no body or invalid JSON). */
  classify(req: IncomingMessage): Promise<{ legacy: boolean; parsedBody?: unknown }>;
  close(): Promise<void>;
}

export function modernFront(runtime: ServerRuntime, opts: { keepAliveMs?: number } = {}): ModernFront {
  const handler = createMcpHandler(() => createModernMcpServer(runtime), {
    legacy: 'reject',
    ...(opts.keepAliveMs !== undefined && { keepAliveMs: opts.keepAliveMs }),
  });
  const node = toNodeHandler(handler);
  return {
    serve: async (req, res, parsedBody) => {
      if (parsedBody === undefined && declaredBytes(req) > DEFAULT_MAX_REQUEST_BODY_SIZE) return tooLarge(req, res);
      return node(req, res, parsedBody);
    },
    async classify(req) {
      const request = await toWebRequest(req);
      if (req.method !== 'POST') return { legacy: await isLegacyRequest(request) };
      let parsedBody: unknown;
      try {
        parsedBody = JSON.parse(await request.clone().text());
      } catch {
        parsedBody = undefined;
      }
      return { legacy: await isLegacyRequest(request, parsedBody), parsedBody };
    },
    close: () => handler.close(),
  };
}

function declaredBytes(req: IncomingMessage): number {
  return Number(req.headers['content-length'] ?? 0);
}

/**
 * SDK 2.4's toNodeHandler answers an oversized body with 413 and `connection: close` while the client is still
 * sending, so the client often sees the socket reset (`fetch failed`, an uncertain link error it retries) instead of
 * the 413. The reference server keeps one error contract in every era: it reads the declared body to its end,
 * then refuses it, as the SDK 1.32 front end does.
 */
async function tooLarge(req: IncomingMessage, res: ServerResponse): Promise<void> {
  req.resume();
  // 'close' too: a client that gives up mid-upload never sends the end.
  if (!req.readableEnded) await new Promise((done) => req.once('end', done).once('close', done));
  const limit = DEFAULT_MAX_REQUEST_BODY_SIZE;
  writeJsonRpcError(res, 413, -32000, `Payload Too Large: Request body must not exceed ${limit} bytes`);
}
