// The reference server over Streamable HTTP on node:http: stateful sessions (one McpServer and transport per
// session, 404 for unknown session ids), resumability through our own event store (optional), retryInterval.
// The transport reads the body itself (no parsedBody), so the SDK's 4 MiB request limit applies.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  InitializeRequestSchema,
  type InitializeResult,
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';
import { writeJsonRpcError as jsonRpcError } from '../core/json-rpc.ts';
import {
  type BehaviourStats,
  emptyBehaviourStats,
  type ParsedServerBehaviour,
  parseBehaviour,
  type ServerBehaviour,
} from './behaviour.ts';
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
  /** Replaces the active server-behaviour faults (behaviour.ts); `evictNow` evicts every session at once. */
  setBehaviour(behaviour: ServerBehaviour): void;
  behaviourStats(): BehaviourStats;
  close(): Promise<void>;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  server: McpServer;
  /** POSTs this session has served (for evictAfterRequests). */
  posts: number;
}

export async function startMcpHttpServer(runtime: ServerRuntime, opts: HttpServerOptions = {}): Promise<McpHttpServer> {
  const host = opts.host ?? '127.0.0.1';
  const sessions = new Map<string, Session>();
  let behaviour: ParsedServerBehaviour = {};
  const stats = emptyBehaviourStats();
  let toolCalls = 0;

  /** The server forgets the session: its transport closes (streams end, handlers abort), its id now 404s. */
  function evict(id: string): void {
    const session = sessions.get(id);
    if (!session) return;
    sessions.delete(id);
    stats.sessionsEvicted++;
    void session.server.close().catch(() => undefined);
  }

  function dropStandaloneStreams(): void {
    for (const session of sessions.values()) {
      // closeStandaloneSSEStream is a no-op when the session has no GET stream open.
      if (hasStandaloneStream(session.transport)) stats.standaloneStreamsClosed++;
      session.transport.closeStandaloneSSEStream();
    }
  }

  /** Stream close and protocol-version override hook into the session's transport and server. */
  function instrument(session: Session): void {
    const { transport, server } = session;
    const closing = new Set<string | number>();
    const close = (id: string | number) => {
      if (!closing.delete(id)) return;
      stats.toolStreamsClosed++;
      transport.closeSSEStream(id);
    };
    const onmessage = transport.onmessage;
    transport.onmessage = (message: JSONRPCMessage, extra) => {
      const rule = behaviour.closeToolStreams;
      if (rule && isJSONRPCRequest(message) && message.method === 'tools/call') {
        const tool = (message.params as { name?: string } | undefined)?.name ?? '';
        if (!rule.tools || rule.tools.includes(tool)) {
          toolCalls++;
          if (toolCalls % rule.every === 0) {
            closing.add(message.id);
            if (rule.afterMs !== undefined) setTimeout(() => close(message.id), rule.afterMs).unref();
          }
        }
      }
      onmessage?.(message, extra);
    };
    const send = transport.send.bind(transport);
    transport.send = async (message, options) => {
      // Close the stream just before the result goes out: the priming event is there, the result is not.
      if ((isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) && message.id !== undefined) {
        close(message.id);
      }
      return send(message, options);
    };
    server.server.setRequestHandler(InitializeRequestSchema, async (request): Promise<InitializeResult> => {
      // The SDK's own negotiation (records client capabilities), then the override, if any.
      const sdk = server.server as unknown as { _oninitialize(r: typeof request): Promise<InitializeResult> };
      const result = await sdk._oninitialize(request);
      if (behaviour.protocolVersion === undefined) return result;
      stats.initializeOverridden++;
      return { ...result, protocolVersion: behaviour.protocolVersion };
    });
  }

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
    const session: Session = { transport, server, posts: 0 };
    return session;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path !== '/mcp') return jsonRpcError(res, 404, -32000, 'Not found: the MCP endpoint is /mcp');
    const header = req.headers['mcp-session-id'];
    const sid = Array.isArray(header) ? header[0] : header;
    if (sid) {
      let session = sessions.get(sid);
      const limit = behaviour.evictAfterRequests;
      if (session && req.method === 'POST' && limit !== undefined && session.posts >= limit) {
        evict(sid);
        session = undefined;
      }
      if (!session) return jsonRpcError(res, 404, -32001, 'Session not found');
      if (req.method === 'GET' && behaviour.dropStandaloneStream) {
        stats.getsRefused++;
        return jsonRpcError(
          res,
          behaviour.dropStandaloneStream.refuseStatus,
          -32000,
          'Service Unavailable: the standalone SSE stream is refused',
        );
      }
      if (req.method === 'POST') session.posts++;
      return session.transport.handleRequest(req, res);
    }
    // No session yet: only an initialize POST creates one; the transport answers anything else with a 400.
    const session = newSession();
    await session.server.connect(session.transport);
    instrument(session);
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
    setBehaviour(input) {
      const { evictNow, ...active } = parseBehaviour(input);
      behaviour = active;
      if (evictNow) for (const id of [...sessions.keys()]) evict(id);
      if (active.dropStandaloneStream) dropStandaloneStreams();
    },
    behaviourStats: () => ({ ...stats }),
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

/** Whether the transport has its standalone GET stream open (SDK-internal map; only used for a statistic). */
function hasStandaloneStream(transport: StreamableHTTPServerTransport): boolean {
  const inner = (transport as unknown as { _webStandardTransport?: { _streamMapping?: Map<string, unknown> } })
    ._webStandardTransport;
  return inner?._streamMapping?.has('_GET_stream') ?? false;
}
