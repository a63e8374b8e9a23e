// The reference server over Streamable HTTP on node:http, behind one of three front ends (core/front-end.ts): SDK
// 1.32 (the 2025-11-25 era), SDK 2.4 (modern/http-front.ts, 2026-07-28 only), or both by era of each request.
// The SDK 1.32 front end: stateful sessions (one McpServer and transport per
// session, 404 for unknown session ids), resumability through our own event store (optional), retryInterval.
// The transport reads the body itself (no parsedBody), under the SDK's 4 MiB request limit; a declared body over
// it is read to its end and refused before any front end sees it (oversized-body.ts), in every era.
// Every request's Host and Origin must name loopback (host-guard.ts): 403 otherwise.
// Besides `/mcp`, two single-era replicas of a mixed fleet answer (core/fleet.ts): the SDK 1.32 front end alone
// and the SDK 2.4 front end alone (legacy: 'reject'), over the same tools, sessions and ledger as `/mcp`.
// Every hook of an active behaviour gets a host bound to its window: what the hook does through it (an eviction,
// a counted action) is a hit of that window (`hits`, by window id).
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  InitializeRequestSchema,
  type InitializeResult,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';
import { FLEET_PATHS } from '../core/fleet.ts';
import type { FrontEnd } from '../core/front-end.ts';
import { HitCounter } from '../core/hit-counter.ts';
import { writeJsonRpcError as jsonRpcError } from '../core/json-rpc.ts';
import { type BehaviourSpec, type BehaviourStats, emptyBehaviourStats } from './behaviour.ts';
import type { BehaviourHost, BehaviourSession, ServerBehaviourKind } from './behaviours/behaviour.ts';
import { BEHAVIOURS } from './behaviours/index.ts';
import { CountingEventStore, EventBudget } from './event-store.ts';
import { hostRefusal } from './host-guard.ts';
import { createMcpServer } from './mcp-server.ts';
import type { ModernFront } from './modern/http-front.ts';
import { declaresOversizedBody, refuseOversizedBody } from './oversized-body.ts';
import { readPostBody, TOO_LARGE } from './read-post-body.ts';
import type { ServerRuntime } from './runtime.ts';

export interface HttpServerOptions {
  host?: string;
  port?: number;
  /** Resumability (our CountingEventStore). Default true. */
  eventStore?: boolean;
  /** SSE `retry:` advice in priming events. */
  retryIntervalMs?: number;
  keepAliveMs?: number;
  /** The protocol front end (default sdk1). Server behaviours act on the SDK 1.32 sessions only. */
  frontEnd?: FrontEnd;
  /** Where the behaviours' hits go, by window id (the process's world counter; a private one by default). */
  hits?: HitCounter;
  /** Host names answered besides loopback ones (host-guard.ts), e.g. a proxy's service name in a cluster. */
  allowedHosts?: readonly string[];
}

export interface McpHttpServer {
  url: string;
  port: number;
  sessionCount(): number;
  /** Replaces the active server-behaviour faults (validated specs, behaviour.ts); new windows open now. */
  setBehaviour(specs: readonly BehaviourSpec[]): void;
  behaviourStats(): BehaviourStats;
  close(): Promise<void>;
}

/** A behaviour active now, with the parameters of the window that set it last and a host bound to that window. */
interface Active {
  behaviour: ServerBehaviourKind<any>;
  params: Record<string, unknown>;
  host: BehaviourHost;
}

export async function startMcpHttpServer(runtime: ServerRuntime, opts: HttpServerOptions = {}): Promise<McpHttpServer> {
  const host = opts.host ?? '127.0.0.1';
  const sessions = new Map<string, BehaviourSession>();
  const stats = emptyBehaviourStats();
  const states = new Map(BEHAVIOURS.map((b) => [b, b.state?.()]));
  const hits = opts.hits ?? new HitCounter();
  let active: Active[] = [];
  let openedIds = new Set<string>();

  const behaviourHost: BehaviourHost = {
    sessions,
    evict(id) {
      const session = sessions.get(id);
      if (!session) return;
      sessions.delete(id);
      stats.sessionsEvicted++;
      void session.server.close().catch(() => undefined);
    },
    count(counter) {
      stats[counter] = (stats[counter] ?? 0) + 1;
    },
    reply: jsonRpcError,
  };

  /** The host as one window's hooks see it: every eviction and counted action is a hit of that window. */
  function hostFor(windowId: string): BehaviourHost {
    return {
      ...behaviourHost,
      evict(id) {
        if (sessions.has(id)) hits.count(windowId);
        behaviourHost.evict(id);
      },
      count(counter) {
        behaviourHost.count(counter);
        hits.count(windowId);
      },
    };
  }

  /** Every session's transport and initialize handler call the active behaviours' hooks. */
  function instrument(session: BehaviourSession): void {
    const { transport, server } = session;
    const onmessage = transport.onmessage;
    transport.onmessage = (message: JSONRPCMessage, extra) => {
      for (const a of active) a.behaviour.received?.(a.params, message, session, a.host, states.get(a.behaviour));
      onmessage?.(message, extra);
    };
    const send = transport.send.bind(transport);
    transport.send = async (message, options) => {
      for (const b of BEHAVIOURS) b.sending?.(message, session, behaviourHost, states.get(b));
      return send(message, options);
    };
    server.server.setRequestHandler(InitializeRequestSchema, async (request): Promise<InitializeResult> => {
      // The SDK's own negotiation (records client capabilities), then the behaviours' changes, if any.
      const sdk = server.server as unknown as { _oninitialize(r: typeof request): Promise<InitializeResult> };
      let result = await sdk._oninitialize(request);
      for (const a of active) if (a.behaviour.initialize) result = a.behaviour.initialize(a.params, result, a.host);
      return result;
    });
  }

  // Every session's resumable events, bounded in all (server/event-store.ts).
  const events = new EventBudget();

  function newSession(): BehaviourSession {
    const server = createMcpServer(runtime);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      eventStore: opts.eventStore === false ? undefined : new CountingEventStore(events),
      retryInterval: opts.retryIntervalMs,
      keepAliveMs: opts.keepAliveMs,
      onsessioninitialized: (id) => {
        session.id = id;
        sessions.set(id, session);
      },
      onsessionclosed: (id) => {
        sessions.delete(id);
        void server.close();
      },
    });
    const session: BehaviourSession = { id: '', transport, server, posts: 0 };
    return session;
  }

  const frontEnd = opts.frontEnd ?? 'sdk1';
  // The SDK 2.4 front end is loaded only by a server that serves it: most runs' servers speak 2025-era only, and
  // its modules are a large part of what a server child loads before it can listen (every profile starts one).
  const newModern = async () =>
    (await import('./modern/http-front.ts')).modernFront(runtime, { keepAliveMs: opts.keepAliveMs });
  const modern = frontEnd === 'sdk1' ? undefined : await newModern();
  /** The modern-only replica of the fleet (made on its first request when `/mcp` serves no 2026 front end). */
  let fleetModern: Promise<ModernFront> | undefined = modern && Promise.resolve(modern);

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const refused = hostRefusal(req, opts.allowedHosts);
    if (refused) return jsonRpcError(res, 403, -32000, `Forbidden: ${refused} (DNS-rebinding protection)`);
    if (declaresOversizedBody(req)) return refuseOversizedBody(req, res);
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path === FLEET_PATHS.legacy) return handleLegacy(req, res);
    if (path === FLEET_PATHS.modern) {
      fleetModern ??= newModern();
      return (await fleetModern).serve(req, res);
    }
    if (path !== '/mcp') return jsonRpcError(res, 404, -32000, 'Not found: the MCP endpoint is /mcp');
    if (!modern) return handleLegacy(req, res);
    if (frontEnd === 'sdk2') return modern.serve(req, res);
    const era = await modern.classify(req).catch(() => undefined);
    if (!era) return jsonRpcError(res, 413, -32000, 'Request body too large');
    return era.legacy ? handleLegacy(req, res, era.parsedBody) : modern.serve(req, res, era.parsedBody);
  }

  /** The SDK 1.32 sessions; `parsedBody` when the dual front end has read the body already. */
  async function handleLegacy(req: IncomingMessage, res: ServerResponse, parsedBody?: unknown): Promise<void> {
    if (parsedBody === undefined && req.method === 'POST') {
      parsedBody = await readPostBody(req);
      if (parsedBody === TOO_LARGE) return refuseOversizedBody(req, res);
    }
    const header = req.headers['mcp-session-id'];
    const sid = Array.isArray(header) ? header[0] : header;
    if (sid) {
      const known = sessions.get(sid);
      if (known) for (const a of active) if (a.behaviour.request?.(a.params, req, res, known, a.host)) return;
      const session = sessions.get(sid);
      if (!session) return jsonRpcError(res, 404, -32001, 'Session not found');
      if (req.method === 'POST') session.posts++;
      return session.transport.handleRequest(req, res, parsedBody);
    }
    // No session yet: only an initialize POST creates one; the transport answers anything else with a 400.
    const session = newSession();
    await session.server.connect(session.transport);
    instrument(session);
    await session.transport.handleRequest(req, res, parsedBody);
    if (session.transport.sessionId === undefined) await session.server.close();
  }

  /** The last spec of each kind wins; specs with ids this process has not seen open now, in list order. */
  function setBehaviour(specs: readonly BehaviourSpec[]): void {
    const latest = new Map<string, Active>();
    for (const { id, kind, ...params } of specs) {
      const behaviour = BEHAVIOURS.find((b) => b.kind === kind);
      if (!behaviour) throw new Error(`unknown server behaviour ${kind}`);
      latest.delete(kind);
      latest.set(kind, { behaviour, params, host: hostFor(id) });
    }
    active = [...latest.values()];
    const opening = specs.filter((s) => !openedIds.has(s.id));
    openedIds = new Set(specs.map((s) => s.id));
    for (const { id, kind, ...params } of opening) {
      BEHAVIOURS.find((b) => b.kind === kind)?.opened?.(params, hostFor(id));
    }
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
    setBehaviour,
    behaviourStats: () => ({ ...stats }),
    async close() {
      const all = [...sessions.values()];
      sessions.clear();
      await Promise.allSettled([
        ...all.map((s) => s.server.close()),
        modern?.close(),
        fleetModern?.then((f) => f.close()),
      ]);
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
    },
  };
}
