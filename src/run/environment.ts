// One profile's running system: the server under test (the reference server in its own process, the reference
// server spawned over stdio by the client, a remote server by URL, or a server we did not write, spawned over stdio
// or reached over HTTP), the MCP link through a Toxiproxy proxy (not for stdio: no TCP link), and the client
// session. close() tears all of it down, whatever state it is in.
import { tmpdir } from 'node:os';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
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
import { withoutCassette } from '../targets/cassette-target.ts';
import { ServerHandle } from '../targets/child-target.ts';
import type { EffectSink, EffectSource } from '../targets/effect-source.ts';
import { ForeignStdioTarget } from '../targets/foreign-stdio-target.ts';
import { startHttpBridge } from '../targets/http-bridge.ts';
import { Interception, type OpKeyValues } from '../targets/interception.ts';
import { expandPlaceholders, expandRecord, type PlaceholderValues } from '../targets/placeholders.ts';
import { assertLoopbackUrl, RemoteTarget, remoteTargetFrom } from '../targets/remote-target.ts';
import { StdioTarget } from '../targets/stdio-target.ts';
import type { ServerUnderTest } from '../under-test/target.ts';
import { type EffectSourceContext, effectSourceFor } from './effect-sources.ts';
import { ReadBackSource } from './read-back.ts';

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
  /** The profile's file (read-back modules resolve against it; default: the current directory). */
  profileFile?: string;
  /** The run was stopped (Ctrl-C, SIGTERM): a reference server child still booting is killed, not waited for. */
  signal?: AbortSignal;
  /** The `effects.keys` values of the ops run so far: intercepted requests are attributed by them. */
  opKeyValues?: OpKeyValues;
}

export type StdioServer = ServerUnderTest & {
  createTransport: () => Transport;
  notes(): string[];
  close(): Promise<void>;
};

export async function startEnvironment(
  profile: Profile,
  seed: number,
  backend: NetworkBackend,
  options: EnvironmentOptions = {},
): Promise<Environment> {
  const target = withoutCassette(profile.target, options.profileFile);
  const pairing = options.pairing ?? PAIRINGS[0];
  const sdk2 =
    pairing.client.sdk === 'sdk2'
      ? { negotiation: pairing.client.negotiation, reprobeBareFallback: options.reprobeBareFallback }
      : undefined;
  const transportEvents: TransportEvent[] = [];
  const onError = (error: Error) => transportEvents.push(transportEvent(error));
  const { deadlineMs, attemptTimeoutMs } = profile.client;
  const edge = new EdgeController(ordinalGenerationFor(deadlineMs + attemptTimeoutMs));
  const stdio = new StdioEdgeController();
  const network = { api: backend.api, mcpProxy: '', counters: backend.counters };

  const placeholders = options.placeholders ?? { tmpdir: tmpdir(), env: process.env };
  const sourceContext = { profileFile: options.profileFile ?? 'profile.yaml', placeholders };
  let effects: EffectSource | undefined;
  const intercept = target.kind === 'stdio' ? profile.effects?.intercept : undefined;
  const interception = intercept && new Interception(intercept.dependencies, seed, options.opKeyValues ?? (() => []));
  if (target.kind === 'reference-stdio' || (target.kind === 'stdio' && target.over !== 'http')) {
    await interception?.start();
    // No TCP link: the client spawns the server; the interposer on its pipe is the edge seam.
    const server: StdioServer =
      target.kind === 'stdio'
        ? foreignStdioTarget(target, placeholders, stdio, interception)
        : new StdioTarget({ seed, ...target, edge: stdio, frontEnd: pairing.server });
    const mcpUrl = target.kind === 'stdio' ? `stdio:${target.command}` : 'stdio:reference';
    // A server we did not write speaks what it speaks: its client stays SDK 1.32, as before.
    const session = stdioSession(mcpUrl, server, onError, target.kind === 'reference-stdio' ? sdk2 : undefined);
    const env: Environment = {
      server,
      session,
      mcpUrl,
      transportEvents,
      network,
      edge,
      stdio,
      notes: () => [...server.notes(), ...sourceNotes(effects)],
      effectsUnknown: () => effects?.failure,
      connect: () => connectStdio(session, server),
      close: async () => {
        await session.close();
        await server.close();
      },
    };
    if (server instanceof ForeignStdioTarget)
      effects = attachEffects(server, profile, env, sourceContext, interception);
    try {
      await env.readBack?.load();
    } catch (error) {
      await env.close();
      throw error;
    }
    await prepareFaults(profile, env);
    return env;
  }

  // A stdio server over the HTTP bridge: the harness owns its processes (crash, restart) as over stdio, and the
  // client reaches the bridge through the proxy as it would an HTTP server.
  await interception?.start();
  const bridged = target.kind === 'stdio' ? foreignStdioTarget(target, placeholders, stdio, interception) : undefined;
  const bridge = bridged && (await startHttpBridge(bridged.createTransport));
  const remote =
    target.kind === 'url'
      ? remoteTargetFrom(target, options.allowNonLoopback === true)
      : target.kind === 'http'
        ? foreignHttpTarget(target.url, options.allowNonLoopback === true)
        : undefined;
  const headers = target.kind === 'http' ? expandRecord(target.headers, placeholders, 'target.headers') : undefined;
  // A remote server outlives runs: start each profile from an empty ledger, state and fault set, unless other
  // shards are using it (scoped keys keep their effects apart instead).
  if (remote?.hasControl && !options.keysScoped) await remote.reset();
  const server =
    bridged ??
    remote ??
    (await ServerHandle.start(
      {
        seed,
        eventStore: target.kind === 'reference' ? target.eventStore : undefined,
        retryIntervalMs: target.kind === 'reference' ? target.retryIntervalMs : undefined,
        dependencyTimeoutMs: target.dependencyTimeoutMs,
        leaky: target.kind === 'reference' ? target.leaky : undefined,
        frontEnd: pairing.server,
      },
      options.signal,
    ));
  const upstream = new URL(bridge?.url ?? remote?.url ?? (server as ServerHandle).url);
  network.mcpProxy = `mcp-${profile.name}${options.opShard ? `-${options.opShard.index}-of-${options.opShard.count}` : ''}`;
  let session: Session | undefined;
  const stopServer = async () => {
    if (server instanceof ServerHandle) await server.stop();
    await bridge?.close();
    await bridged?.close();
  };
  try {
    const listen = await backend.createProxy(network.mcpProxy, {
      host: upstream.hostname.replace(/^\[|\]$/g, ''),
      port: Number(upstream.port || 80),
    });
    const mcpUrl = `http://${listen.host.includes(':') ? `[${listen.host}]` : listen.host}:${listen.port}${upstream.pathname}`;
    session = new Session({ url: mcpUrl, wrapFetch: edge.wrap, onError, headers, sdk2 });
    const env: Environment = {
      server,
      session,
      mcpUrl,
      transportEvents,
      network,
      edge,
      stdio,
      notes: () => [
        ...(remote && !remote.hasControl && !remote.observesEffects
          ? [
              `${target.kind === 'http' ? 'http target' : 'url target without admin'}: no dependency faults and no ledger (effects unknown)`,
            ]
          : []),
        ...(bridged
          ? [
              "stdio over http: Faultline's bridge serves the stdio server, one process per MCP session",
              ...bridged.notes(),
            ]
          : []),
        ...sourceNotes(effects),
      ],
      effectsUnknown: () => effects?.failure,
      connect: async () => {
        await session?.get();
      },
      close: async () => {
        await session?.close();
        await backend.api.deleteProxy(network.mcpProxy).catch(() => {});
        await stopServer();
      },
    };
    if (target.kind === 'http' && remote) effects = attachEffects(remote, profile, env, sourceContext);
    if (bridged) effects = attachEffects(bridged, profile, env, sourceContext, interception);
    await env.readBack?.load();
    await prepareFaults(profile, env);
    return env;
  } catch (error) {
    await session?.close();
    await stopServer();
    throw error;
  }
}

/** A stdio server we did not write, its command, arguments, environment and cwd with `${tmpdir}` and `${env:…}` expanded. */
export function foreignStdioTarget(
  target: Extract<Profile['target'], { kind: 'stdio' }>,
  placeholders: PlaceholderValues,
  stdio: StdioEdgeController,
  interception?: Interception,
): ForeignStdioTarget {
  return new ForeignStdioTarget(
    {
      command: expandPlaceholders(target.command, placeholders, 'target.command'),
      args: target.args.map((arg, i) => expandPlaceholders(arg, placeholders, `target.args[${i}]`)),
      env: expandRecord(target.env, placeholders, 'target.env'),
      cwd: target.cwd && expandPlaceholders(target.cwd, placeholders, 'target.cwd'),
      maxBufferBytes: target.maxBufferBytes,
    },
    stdio,
    interception,
  );
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

/** The first connect to a stdio server; a foreign one that fails says why (its exit and stderr). */
export async function connectStdio(session: Session, server: StdioServer): Promise<void> {
  try {
    await session.get();
  } catch (error) {
    throw server instanceof ForeignStdioTarget ? await server.startFailure(error) : error;
  }
}

/** A Streamable HTTP server we did not write: loopback unless allowed, no admin endpoint. */
export function foreignHttpTarget(url: string, allowNonLoopback: boolean): RemoteTarget {
  assertLoopbackUrl('target.url', url, allowNonLoopback);
  return new RemoteTarget(url, undefined, 'http');
}

/** A foreign target sees effects only through a source (read-back, interception); without one they stay unknown. */
function attachEffects(
  server: EffectSink,
  profile: Profile,
  env: Environment,
  ctx: EffectSourceContext,
  interception?: EffectSource,
): EffectSource | undefined {
  const source = effectSourceFor(profile, env.session, ctx, interception);
  if (source instanceof ReadBackSource) env.readBack = source;
  if (source) server.attachEffects(source);
  return source;
}

/** Why a source could not see the effects this time, for the report. */
function sourceNotes(source: EffectSource | undefined): string[] {
  return source?.failure ? [source.failure] : [];
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
