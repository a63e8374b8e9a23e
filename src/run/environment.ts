// One profile's running system: the server under test, started by its target kind (run/target-starts/), the MCP
// link (through a Toxiproxy proxy unless told otherwise; none over a pipe: no TCP link), and the client session.
// close() tears all of it down, whatever state it is in.
import { tmpdir } from 'node:os';
import type { ConnectionOptions } from '../client/connection.ts';
import { Session } from '../client/session.ts';
import { epochMs } from '../core/clock.ts';
import type { TransportEvent } from '../core/history.ts';
import { ordinalGenerationFor } from '../core/logical-key.ts';
import { PAIRINGS, type Pairing } from '../core/pairing.ts';
import type { Shard } from '../core/shard.ts';
import type { FaultEnvironment } from '../faults/context.ts';
import { EdgeController } from '../faults/edge/http/controller.ts';
import { StdioEdgeController } from '../faults/edge/stdio/controller.ts';
import { findFaultKind } from '../faults/registry.ts';
import type { NetworkBackend } from '../network/backend.ts';
import type { Profile } from '../profile/schema.ts';
import type { EffectSource } from '../targets/effect-source.ts';
import type { OpKeyValues } from '../targets/interception.ts';
import type { PlaceholderValues } from '../targets/placeholders.ts';
import { effectSourceFor } from './effect-sources.ts';
import { ReadBackSource } from './read-back.ts';
import { startTarget } from './target-starts/index.ts';
import type { LinkStart, PipeStart, StdioServer } from './target-starts/start.ts';

export interface Environment extends FaultEnvironment {
  session: Session;
  mcpUrl: string;
  /** What the client transport reported on onerror (SSE drops and reconnects), on the run's clock. */
  transportEvents: TransportEvent[];
  /** What the target wants said in the report (stdio: processes spawned, framing errors). */
  notes(): string[];
  /** The read-back probes of a foreign target's `effects:`, when the profile has them. */
  readBack?: ReadBackSource;
  /** Why the effects could not be seen, when a source was there and its last read failed. */
  effectsUnknown?(): string | undefined;
  /** The client's first connect; a foreign stdio server that fails to start says why, with its stderr. */
  connect(): Promise<void>;
  close(): Promise<void>;
}

const STDIO_CONNECT_TIMEOUT_MS = 20_000;

export interface EnvironmentOptions {
  /** A url target (and its admin endpoint) may be outside 127.0.0.0/8 and ::1. */
  allowNonLoopback?: boolean;
  /** This run is one shard of a profile split by ops: its proxy is named apart from the other shards' on a shared Toxiproxy. */
  opShard?: Shard;
  /** Trace ids and idempotency keys carry the run and shard (run/trace-key.ts): other shards share the server, so it is not reset. */
  keysScoped?: boolean;
  /** The client SDK and server front end (default: legacy, SDK 1.32 on both sides). */
  pairing?: Pairing;
  /** The policy refuses a version fallback made on a bare 400 to server/discover (SDK 2.4 clients). */
  reprobeBareFallback?: boolean;
  /** What `${tmpdir}` and `${env:NAME}` stand for in a foreign target (default: the OS temp dir, process.env). */
  placeholders?: PlaceholderValues;
  /**
   * The MCP link straight to the server, with no Toxiproxy proxy on it: for a run whose profile puts no fault on
   * the link (its proxy would only forward). Default: through a proxy, so network faults can be added at any time.
   */
  directLink?: boolean;
  /** The profile's file (read-back modules resolve against it; default: the current directory). */
  profileFile?: string;
  /** The run was stopped (Ctrl-C, SIGTERM): a reference server child still booting is killed, not waited for. */
  signal?: AbortSignal;
  /** The `effects.keys` values of the ops run so far: intercepted requests are attributed by them. */
  opKeyValues?: OpKeyValues;
}

export async function startEnvironment(
  profile: Profile,
  seed: number,
  backend: NetworkBackend,
  options: EnvironmentOptions = {},
): Promise<Environment> {
  const pairing = options.pairing ?? PAIRINGS[0];
  const transportEvents: TransportEvent[] = [];
  const onError = (error: Error) => transportEvents.push(transportEvent(error));
  const { deadlineMs, attemptTimeoutMs } = profile.client;
  const edge = new EdgeController(ordinalGenerationFor(deadlineMs + attemptTimeoutMs));
  const stdio = new StdioEdgeController();
  const network = { api: backend.api, mcpProxy: '', counters: backend.counters };
  const placeholders = options.placeholders ?? { tmpdir: tmpdir(), env: process.env };
  const started = await startTarget(profile.target, {
    seed,
    pairing,
    stdio,
    placeholders,
    profileFile: options.profileFile,
    intercept: profile.effects?.intercept,
    opKeyValues: options.opKeyValues ?? (() => []),
    allowNonLoopback: options.allowNonLoopback === true,
    keysScoped: options.keysScoped === true,
    signal: options.signal,
  });
  const parts = { transportEvents, network, edge, stdio };
  const sdk2 =
    pairing.client.sdk === 'sdk2'
      ? { negotiation: pairing.client.negotiation, reprobeBareFallback: options.reprobeBareFallback }
      : undefined;
  let effects: EffectSource | undefined;
  const sourceNotes = () => (effects?.failure ? [effects.failure] : []);
  const env =
    started.link === 'pipe'
      ? pipeEnvironment(started, parts, onError, sourceNotes, started.pairedClient ? sdk2 : undefined)
      : await linkEnvironment(
          started,
          parts,
          options.directLink ? undefined : { backend, name: proxyName(profile, options) },
          onError,
          sourceNotes,
          sdk2,
        );
  env.effectsUnknown = () => effects?.failure;
  try {
    if (started.sink) {
      const sourceContext = { profileFile: options.profileFile ?? 'profile.yaml', placeholders };
      effects = effectSourceFor(profile, env.session, sourceContext, started.interception);
      if (effects instanceof ReadBackSource) env.readBack = effects;
      if (effects) started.sink.attachEffects(effects);
    }
    await env.readBack?.load();
    await prepareFaults(profile, env);
    return env;
  } catch (error) {
    await env.close();
    throw error;
  }
}

type EnvironmentParts = Pick<Environment, 'transportEvents' | 'network' | 'edge' | 'stdio'>;

/** The client spawns the server and talks over its pipe; the interposer on the pipe is the edge seam. */
function pipeEnvironment(
  started: PipeStart,
  parts: EnvironmentParts,
  onError: (error: Error) => void,
  sourceNotes: () => string[],
  sdk2: ConnectionOptions['sdk2'],
): Environment {
  const { server, mcpUrl } = started;
  const session = stdioSession(mcpUrl, server, onError, sdk2);
  return {
    ...parts,
    server,
    session,
    mcpUrl,
    notes: () => [...server.notes(), ...sourceNotes()],
    connect: () => connectStdio(session, server),
    close: async () => {
      await session.close();
      await server.close();
    },
  };
}

/** The client reaches the server at its upstream URL, through a Toxiproxy proxy in front of it unless told not to. */
async function linkEnvironment(
  started: LinkStart,
  parts: EnvironmentParts,
  proxy: { backend: NetworkBackend; name: string } | undefined,
  onError: (error: Error) => void,
  sourceNotes: () => string[],
  sdk2: ConnectionOptions['sdk2'],
): Promise<Environment> {
  try {
    const link = proxy ? await proxiedLink(started.upstream, parts, proxy) : directLink(started.upstream);
    const session = new Session({ url: link.url, wrapFetch: parts.edge.wrap, onError, headers: started.headers, sdk2 });
    return {
      ...parts,
      server: started.server,
      session,
      mcpUrl: link.url,
      notes: () => [...started.notes(), ...sourceNotes()],
      connect: async () => {
        await session.get().catch((error: Error) => {
          throw started.connectFailure?.(error) ?? error;
        });
      },
      close: async () => {
        await session.close();
        await link.remove();
        await started.stop();
      },
    };
  } catch (error) {
    await started.stop();
    throw error;
  }
}

interface Link {
  url: string;
  remove(): Promise<void>;
}

function directLink(upstream: URL): Link {
  return { url: `${upstream.protocol}//${upstream.host}${upstream.pathname}`, remove: async () => {} };
}

async function proxiedLink(
  upstream: URL,
  parts: EnvironmentParts,
  { backend, name }: { backend: NetworkBackend; name: string },
): Promise<Link> {
  parts.network.mcpProxy = name;
  const listen = await backend.createProxy(name, {
    host: upstream.hostname.replace(/^\[|\]$/g, ''),
    port: Number(upstream.port || 80),
  });
  const host = listen.host.includes(':') ? `[${listen.host}]` : listen.host;
  return {
    url: `http://${host}:${listen.port}${upstream.pathname}`,
    remove: () => backend.api.deleteProxy(name).catch(() => {}),
  };
}

/** Shards of a profile split by ops name their proxies apart on a shared Toxiproxy. */
function proxyName(profile: Profile, options: EnvironmentOptions): string {
  const shard = options.opShard;
  return `mcp-${profile.name}${shard ? `-${shard.index}-of-${shard.count}` : ''}`;
}

/** The client's session to a stdio server it spawns (one process per connection). */
export function stdioSession(
  url: string,
  server: StdioServer,
  onError?: (error: Error) => void,
  sdk2?: ConnectionOptions['sdk2'],
): Session {
  // Over stdio, initialize includes spawning the server (Node + tsx + msw: 2-4 s, more on busy cores): a connect
  // timeout shorter than that would kill every new child before it answers.
  return new Session({
    url,
    transport: server.createTransport,
    onError,
    connectTimeoutMs: STDIO_CONNECT_TIMEOUT_MS,
    ...(sdk2 && { sdk2 }),
  });
}

/** The first connect to a stdio server; one that fails says why (its exit and stderr). */
export async function connectStdio(session: Session, server: StdioServer): Promise<void> {
  try {
    await session.get();
  } catch (error) {
    throw server.startFailure ? await server.startFailure(error) : error;
  }
}

/** Each fault kind in the profile gets its set-up done once (e.g. crash boots a standby process). */
async function prepareFaults(profile: Profile, env: Environment): Promise<void> {
  const kinds = new Set(profile.faults.map((f) => findFaultKind(f.seam, f.kind)!));
  for (const kind of kinds) await kind.prepare?.(env);
}

/** client.onerror carries only message text for these (SDK 1.32 builds plain Errors), so the text decides. */
function transportEvent(error: Error): TransportEvent {
  const message = error.message.slice(0, 300);
  const kind: TransportEvent['kind'] = /SSE stream disconnected/.test(message)
    ? 'sse-disconnected'
    : /Maximum reconnection attempts/.test(message)
      ? 'reconnect-exhausted'
      : /Failed to reconnect SSE stream/.test(message)
        ? 'reconnect-failed'
        : /unknown message ID/i.test(message)
          ? 'late-response'
          : /Error POSTing to endpoint|Failed to open SSE stream|fetch failed/.test(message)
            ? 'request-failed'
            : 'other';
  return { atMs: epochMs(), kind, message };
}
