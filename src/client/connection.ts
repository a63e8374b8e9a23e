// One MCP session: the SDK Client over Streamable HTTP, with the fetch chain the harness needs
// (edge faults inside, attempt recording outside) and complete reconnection options (a partial object
// gives NaN delays in SDK 1.32, see notes §1.2).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { noteNotification, recordingFetch } from './attempt-context.ts';
import { offerObserver } from './offer-observer.ts';
import { ownSignalPerRequest } from './request-signal.ts';

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
}

/** Streamable HTTP, or another transport that may offer the same extras (the stdio decorator has protocolVersion). */
type ClientTransport = Transport & { protocolVersion?: string; terminateSession?: () => Promise<void> };

/** A failed open carries the version its initialize offered, when it got that far. */
export type OpenFailure = Error & { offeredVersion?: string };

/** The fetch the transport calls: a signal of its own per request, the attempt's HTTP record, then `inner`. */
export function transportFetch(inner: typeof fetch): typeof fetch {
  return ownSignalPerRequest(recordingFetch(inner));
}

export class Connection {
  private constructor(
    readonly client: Client,
    readonly transport: ClientTransport,
    /** The protocol version the initialize request offered on the wire (after any edge rewrite). */
    readonly offeredVersion: string | undefined,
  ) {}

  static async open(options: ConnectionOptions): Promise<Connection> {
    // Observed innermost, next to the real fetch: what the server was offered, whatever rewrote it on the way.
    const observer = offerObserver(fetch);
    const inner = options.wrapFetch ? options.wrapFetch(observer.fetch) : observer.fetch;
    const r = options.reconnection ?? { initialMs: 250, maxMs: 2000, grow: 1.5, maxRetries: 3 };
    const transport: ClientTransport =
      options.transport?.() ??
      new StreamableHTTPClientTransport(new URL(options.url), {
        fetch: transportFetch(inner),
        ...(options.headers && { requestInit: { headers: options.headers } }),
        reconnectionOptions: {
          initialReconnectionDelay: r.initialMs,
          maxReconnectionDelay: r.maxMs,
          reconnectionDelayGrowFactor: r.grow,
          maxRetries: r.maxRetries,
        },
      });
    const client = new Client({ name: 'faultline', version: '0.1.0' });
    if (options.onError) client.onerror = options.onError;
    // A log message on an attempt's own stream is part of what the model may see of that attempt.
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => noteNotification(JSON.stringify(n.params)));
    try {
      await client.connect(transport, { timeout: options.connectTimeoutMs ?? 5000 });
    } catch (error) {
      // The server may have created a session already (initialize passed, a later step failed): end it.
      if (transport.sessionId !== undefined) await Connection.terminate(transport);
      await client.close().catch(() => {});
      if (error instanceof Error) (error as OpenFailure).offeredVersion = observer.offered();
      throw error;
    }
    return new Connection(client, transport, observer.offered());
  }

  get protocolVersion(): string | undefined {
    return this.transport.protocolVersion;
  }

  /** Ends the session on the server (DELETE) as well as locally: client.close() alone leaks it. */
  async close(): Promise<void> {
    await Connection.terminate(this.transport);
    await this.client.close().catch(() => {});
  }

  private static async terminate(transport: ClientTransport): Promise<void> {
    if (!transport.terminateSession) return;
    await Promise.race([transport.terminateSession().catch(() => {}), new Promise((r) => setTimeout(r, 500))]);
  }
}
