// The reference server over Streamable HTTP on node:http: stateful sessions (one McpServer and transport per
// session, 404 for unknown session ids), resumability through our own event store (optional), retryInterval.
// The transport reads the body itself (no parsedBody), so the SDK's 4 MiB request limit applies.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CountingEventStore } from './event-store.ts';
import { createMcpServer } from './mcp-server.ts';
import type { ServerRuntime } from './runtime.ts';

export interface HttpServerOptions {
  host?: string;
  port?: number;
  /** Resumability (our CountingEventStore). Default true. */
  eventStore?: boolean;
  /** SSE `retry:` advice in priming events. */
  retryIntervalMs?: number;
  keepAliveMs?: number;
}

export interface McpHttpServer {
  url: string;
  port: number;
  sessionCount(): number;
  close(): Promise<void>;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  server: McpServer;
}

function jsonRpcError(res: ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

export async function startMcpHttpServer(runtime: ServerRuntime, opts: HttpServerOptions = {}): Promise<McpHttpServer> {
  const host = opts.host ?? '127.0.0.1';
  const sessions = new Map<string, Session>();

  function newSession(): Session {
    const server = createMcpServer(runtime);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      eventStore: opts.eventStore === false ? undefined : new CountingEventStore(),
      retryInterval: opts.retryIntervalMs,
      keepAliveMs: opts.keepAliveMs,
      onsessioninitialized: (id) => {
        sessions.set(id, session);
      },
      onsessionclosed: (id) => {
        sessions.delete(id);
        void server.close();
      },
    });
    const session = { transport, server };
    return session;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path !== '/mcp') return jsonRpcError(res, 404, -32000, 'Not found: the MCP endpoint is /mcp');
    const header = req.headers['mcp-session-id'];
    const sid = Array.isArray(header) ? header[0] : header;
    if (sid) {
      const session = sessions.get(sid);
      if (!session) return jsonRpcError(res, 404, -32001, 'Session not found');
      return session.transport.handleRequest(req, res);
    }
    // No session yet: only an initialize POST creates one; the transport answers anything else with a 400.
    const session = newSession();
    await session.server.connect(session.transport);
    await session.transport.handleRequest(req, res);
    if (session.transport.sessionId === undefined) await session.server.close();
  }

  const http = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) jsonRpcError(res, 500, -32603, 'Internal server error');
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(opts.port ?? 0, host, () => resolve());
  });
  const port = (http.address() as AddressInfo).port;

  return {
    url: `http://${host}:${port}/mcp`,
    port,
    sessionCount: () => sessions.size,
    async close() {
      const all = [...sessions.values()];
      sessions.clear();
      await Promise.allSettled(all.map((s) => s.server.close()));
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
    },
  };
}
