// The SDK 2.4 front end on node:http: createMcpHandler with a fresh McpServer per request (the 2026-07-28 wire
// has no session), wrapped by toNodeHandler. For the dual front end, classify() says which era a request belongs
// to (the SDK's own isLegacyRequest), reading the body once and handing it on parsed, since a Node request
// stream can be read only once.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { toNodeHandler, toWebRequest } from '@modelcontextprotocol/node';
import { createMcpHandler, isLegacyRequest } from '@modelcontextprotocol/server';
import type { ServerRuntime } from '../runtime.ts';
import { createModernMcpServer } from './mcp-server.ts';
import { feedCharges } from './payments-feed.ts';

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
  const unfeed = feedCharges(runtime, handler.bus);
  const node = toNodeHandler(handler);
  return {
    serve: (req, res, parsedBody) => node(req, res, parsedBody),
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
    close: () => {
      unfeed();
      return handler.close();
    },
  };
}
