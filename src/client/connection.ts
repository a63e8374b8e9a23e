// One MCP session: the SDK Client over Streamable HTTP, with the fetch chain the harness needs
// (edge faults inside, attempt recording outside) and complete reconnection options (a partial object
// gives NaN delays in SDK 1.32, see notes §1.2). The client is SDK 1.32's, or SDK 2.4's behind the same shape
// (sdk2-client.ts) when `sdk2` says how it negotiates: the policies see one McpClient either way.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { DiscoveryProbe } from '../core/history.ts';
import { MODERN_VERSION } from '../core/pairing.ts';
import { endIfAnswerLost, withOwnAnswerLost } from './answer-lost.ts';
import { AttemptRegistry } from './attempt-registry.ts';
import { AmbiguousDiscovery, discoveryTap } from './discovery-tap.ts';
import type { ConnectionClient } from './mcp-client.ts';
import { offerObserver } from './offer-observer.ts';
import { recordingFetch } from './recording-fetch.ts';
import { ownSignalPerRequest } from './request-signal.ts';

/** SDK 2.4's version negotiation: 2025-11-25 initialize only, probe server/discover first, or one pinned version. */
type Sdk2Negotiation = 'legacy' | 'auto' | { pin: string };

interface Sdk2ConnectionOptions {
  negotiation: Sdk2Negotiation;
  /**
   * Refuse a connect that fell back to the 2025 era (or gave up) because its `server/discover` probe got a bare
   * 400 (no JSON-RPC error: no era evidence): it fails with AmbiguousDiscovery, which is retried.
   */
  reprobeBareFallback?: boolean;
}

export interface ConnectionOptions {
  url: string;
  /** Wraps the real fetch: where MCP-edge faults enter. */
  wrapFetch?: (inner: typeof fetch) => typeof fetch;
  connectTimeoutMs?: number;
  reconnection?: { initialMs: number; maxMs: number; grow: number; maxRetries: number };
  onError?: (error: Error) => void;
  /** Sent with every HTTP request (a foreign server's Authorization, say). */
  headers?: Record<string, string>;
  /** Another transport instead of Streamable HTTP (stdio targets), made per connect; `url` then only names it. */
  transport?: () => Transport;
  /** Use SDK 2.4's client (over Streamable HTTP, or `transport`) with this negotiation; SDK 1.32's when absent. */
  sdk2?: Sdk2ConnectionOptions;
}

/** Streamable HTTP, or another transport that may offer the same extras (the stdio decorator has protocolVersion). */
type ClientTransport = Transport & { protocolVersion?: string; terminateSession?: () => Promise<void> };

/** A failed open carries the version its initialize offered, when it got that far, and its discovery probes. */
export type OpenFailure = Error & { offeredVersion?: string; probes?: DiscoveryProbe[] };

/**
 * The fetch the transport calls: a signal of its own per request, the HTTP record of the attempt in `attempts` the
 * request belongs to, then `inner`.
 */
export function transportFetch(inner: typeof fetch, attempts: AttemptRegistry): typeof fetch {
  return ownSignalPerRequest(recordingFetch(inner, attempts));
}

/**
 * A new transport to the server as `options` say (Streamable HTTP through `wrapFetch`, or `options.transport`), its
 * requests found in `attempts`.
 */
export function clientTransport(
  options: ConnectionOptions,
  attempts: AttemptRegistry,
  innermost: typeof fetch = fetch,
): ClientTransport {
  const inner = options.wrapFetch ? options.wrapFetch(innermost) : innermost;
  const r = options.reconnection ?? { initialMs: 250, maxMs: 2000, grow: 1.5, maxRetries: 3 };
  return (
    options.transport?.() ??
    new StreamableHTTPClientTransport(new URL(options.url), {
      fetch: transportFetch(inner, attempts),
      ...(options.headers && { requestInit: { headers: options.headers } }),
      reconnectionOptions: {
        initialReconnectionDelay: r.initialMs,
        maxReconnectionDelay: r.maxMs,
        reconnectionDelayGrowFactor: r.grow,
        maxRetries: r.maxRetries,
      },
    })
  );
}

/** The client's onerror: an attempt whose answer was lost with its stream ends now (answer-lost.ts), then `onError`. */
function onClientError(attempts: AttemptRegistry, onError?: (error: Error) => void): (error: Error) => void {
  return (error) => {
    endIfAnswerLost(error, attempts.takeBroken(error));
    onError?.(error);
  };
}

export class Connection {
  private constructor(
    readonly client: ConnectionClient,
    readonly transport: ClientTransport,
    /** The protocol version the initialize request offered on the wire (after any edge rewrite). */
    readonly offeredVersion: string | undefined,
    private readonly closeClient: () => Promise<void>,
    /** The attempts in flight on this connection, for its fetch to find (attempt-registry.ts). */
    readonly attempts: AttemptRegistry,
    /** The `server/discover` probes this connect sent (SDK 2.4 negotiating; empty otherwise). */
    readonly probes: DiscoveryProbe[] = [],
  ) {}

  static async open(options: ConnectionOptions): Promise<Connection> {
    // Observed innermost, next to the real fetch: what the server was offered, whatever rewrote it on the way.
    const observer = offerObserver(fetch);
    const attempts = new AttemptRegistry();
    const inner = options.wrapFetch ? options.wrapFetch(observer.fetch) : observer.fetch;
    const r = options.reconnection ?? { initialMs: 250, maxMs: 2000, grow: 1.5, maxRetries: 3 };
    const sdk2 = options.sdk2;
    if (sdk2) {
      const tap = discoveryTap(transportFetch(inner, attempts));
      const bareProbe = () => sdk2.reprobeBareFallback === true && tap.probes().some((p) => p.outcome === 'bare-400');
      try {
        // SDK 2.4's client loads only when a run speaks it: most runs never do, and it is a fifth of a run's code.
        const { openSdk2 } = await import('./sdk2-client.ts');
        const opened = await withOwnAnswerLost(attempts, (connectOptions) =>
          openSdk2({
            negotiation: sdk2.negotiation,
            url: options.url,
            transport: options.transport?.(),
            fetch: tap.fetch,
            reconnection: r,
            connectTimeoutMs: options.connectTimeoutMs ?? 5000,
            onError: onClientError(attempts, options.onError),
            connectOptions,
          }),
        );
        if (bareProbe() && opened.transport.protocolVersion !== MODERN_VERSION) {
          await Connection.terminate(opened.transport);
          await opened.close().catch(() => {});
          throw new AmbiguousDiscovery(`the SDK fell back to ${opened.transport.protocolVersion ?? 'the 2025 era'}`);
        }
        return new Connection(
          opened.client,
          opened.transport,
          observer.offered(),
          opened.close,
          attempts,
          // The connect's probes as they are now: a server/discover sent later (the calibration's ping) is not one.
          [...tap.probes()],
        );
      } catch (caught) {
        const error =
          bareProbe() && !(caught instanceof AmbiguousDiscovery)
            ? new AmbiguousDiscovery(String((caught as Error)?.message ?? caught))
            : caught;
        if (error instanceof Error) Object.assign(error, { offeredVersion: observer.offered(), probes: tap.probes() });
        throw error;
      }
    }
    const transport = clientTransport(options, attempts, observer.fetch);
    const client = new Client({ name: 'faultline', version: '0.1.0' });
    client.onerror = onClientError(attempts, options.onError);
    try {
      // An initialize whose stream breaks off unanswered fails now, not at the connect timeout (answer-lost.ts).
      await withOwnAnswerLost(attempts, (lost) =>
        client.connect(transport, { timeout: options.connectTimeoutMs ?? 5000, ...lost }),
      );
    } catch (error) {
      // The server may have created a session already (initialize passed, a later step failed): end it.
      if (transport.sessionId !== undefined) await Connection.terminate(transport);
      await client.close().catch(() => {});
      if (error instanceof Error) (error as OpenFailure).offeredVersion = observer.offered();
      throw error;
    }
    return new Connection(client, transport, observer.offered(), () => client.close(), attempts);
  }

  get protocolVersion(): string | undefined {
    return this.transport.protocolVersion;
  }

  /** Ends the session on the server (DELETE) as well as locally: client.close() alone leaks it. */
  async close(): Promise<void> {
    await Connection.terminate(this.transport);
    await this.closeClient().catch(() => {});
  }

  private static async terminate(transport: ClientTransport): Promise<void> {
    if (!transport.terminateSession) return;
    await Promise.race([transport.terminateSession().catch(() => {}), new Promise((r) => setTimeout(r, 500))]);
  }
}
