// The SDK 2.4 client (`@modelcontextprotocol/client`) behind the shape the policies use (SDK 1.32's callTool and
// listTools): the policies, units and classification never learn which SDK answered. SDK 2.4's errors are turned
// into their SDK 1.32 counterparts, so one classification (classify.ts) serves both: an HTTP status refusal
// (SdkHttpError) becomes StreamableHTTPError, a JSON-RPC error (ProtocolError) and the SDK's own timeout and
// closed connection become McpError with the same codes (-32001, -32000).

import {
  Client,
  ProtocolError,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  StreamableHTTPClientTransport,
  type VersionNegotiationMode,
} from '@modelcontextprotocol/client';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { MODERN_VERSION } from '../core/pairing.ts';
import type { AnswerLostOptions } from './answer-lost.ts';
import { confirmingUser, ELICITATION_CAPABILITY } from './confirming-user.ts';
import type { ConnectionClient, McpClient } from './mcp-client.ts';
import { TaskClient } from './task-client.ts';

export interface Sdk2Options {
  negotiation: VersionNegotiationMode;
  url: string;
  /** Another transport (stdio) instead of Streamable HTTP to `url` through `fetch`. */
  transport?: Transport;
  fetch: typeof fetch;
  reconnection: { initialMs: number; maxMs: number; grow: number; maxRetries: number };
  connectTimeoutMs: number;
  /** More options for the connect's initialize (its answer-lost signal: answer-lost.ts). */
  connectOptions?: AnswerLostOptions;
  onError?: (error: Error) => void;
  /** notifications/resources/updated, from a subscriptions/listen stream (client/listener.ts). */
  onResourceUpdated?: (params: { uri: string; _meta?: Record<string, unknown> }) => void;
}

export interface Sdk2Connection {
  client: ConnectionClient;
  /** The SDK 1.32 transport shape the connection keeps (sessionId, protocolVersion, terminateSession). */
  transport: Transport & { protocolVersion?: string; terminateSession?: () => Promise<void> };
  close(): Promise<void>;
  /** SDK 2.4's own client, for what the policies' shape has no room for (listen, readResource). */
  sdk: Client;
}

/** SDK 2.4's error as the SDK 1.32 error of the same meaning (anything else unchanged). */
export function asSdk1Error(error: unknown): unknown {
  if (error instanceof SdkHttpError) return new StreamableHTTPError(error.status, error.message);
  if (error instanceof ProtocolError) return new McpError(error.code, error.message, error.data);
  if (error instanceof SdkError) {
    // A send or a version probe that failed on the network keeps fetch's TypeError (with the socket cause).
    if (error.cause instanceof TypeError) return error.cause;
    if (error.code === SdkErrorCode.RequestTimeout) return new McpError(-32001, error.message, error.data);
    if (error.code === SdkErrorCode.ConnectionClosed) return new McpError(-32000, error.message, error.data);
    if (error.code === SdkErrorCode.EraNegotiationFailed) {
      return new Error(`protocol version is not supported: ${error.message}`);
    }
    if (error.code === SdkErrorCode.NotConnected) return new Error(`Not connected: ${error.message}`);
  }
  return error;
}

const rethrow = (error: unknown): never => {
  throw asSdk1Error(error);
};

export async function openSdk2(options: Sdk2Options): Promise<Sdk2Connection> {
  const r = options.reconnection;
  const http = options.transport
    ? undefined
    : new StreamableHTTPClientTransport(new URL(options.url), {
        fetch: options.fetch,
        reconnectionOptions: {
          initialReconnectionDelay: r.initialMs,
          maxReconnectionDelay: r.maxMs,
          reconnectionDelayGrowFactor: r.grow,
          maxRetries: r.maxRetries,
        },
      });
  // SDK 1.32's Transport and SDK 2.4's have the same shape (start, send, close, onmessage, onclose, onerror). A
  // transport that is not SDK 2.4's own StdioClientTransport probes server/discover in place, on its one child.
  const transport = (http ?? options.transport) as StreamableHTTPClientTransport;
  const sdk = new Client(
    { name: 'faultline', version: '0.1.0' },
    { versionNegotiation: { mode: options.negotiation }, capabilities: ELICITATION_CAPABILITY },
  );
  sdk.setRequestHandler('elicitation/create', confirmingUser);
  if (options.onError) sdk.onerror = options.onError;
  if (options.onResourceUpdated) {
    const onUpdated = options.onResourceUpdated;
    sdk.setNotificationHandler('notifications/resources/updated', (n) => onUpdated(n.params));
  }
  await sdk
    .connect(transport, { timeout: options.connectTimeoutMs, ...options.connectOptions })
    .catch(async (error) => {
      await sdk.close().catch(() => {});
      rethrow(error);
    });
  const tasks = http && new TaskClient(options.url, options.fetch);
  const client = {
    ...(tasks && { callTask: (...args: Parameters<TaskClient['callTool']>) => tasks.callTool(...args) }),
    callTool: (params: Parameters<McpClient['callTool']>[0], _schema: unknown, callOptions?: object) =>
      sdk.callTool(params, callOptions).catch(rethrow),
    listTools: () => sdk.listTools().catch(rethrow),
    // The 2026-07-28 wire has no ping: server/discover (a MUST there, with a small answer) is its request that
    // touches nothing, for the calibration. tools/list, used before, carries every tool's schemas and took 2 to 3
    // times a legacy ping. A connection keeps only its connect's own probes (connection.ts), not these.
    ping: (pingOptions?: { timeout?: number; signal?: AbortSignal }) =>
      (sdk.getNegotiatedProtocolVersion() === MODERN_VERSION ? sdk.discover(pingOptions) : sdk.ping(pingOptions)).catch(
        rethrow,
      ),
  } as unknown as ConnectionClient;
  const shape = {
    get sessionId() {
      return http?.sessionId;
    },
    get protocolVersion() {
      return sdk.getNegotiatedProtocolVersion();
    },
    ...(http && { terminateSession: () => http.terminateSession() }),
  } as unknown as Sdk2Connection['transport'];
  return { client, transport: shape, close: () => sdk.close(), sdk };
}
