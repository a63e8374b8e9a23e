// Start and stop an embedded Toxiproxy-compatible server. Every random draw of its toxics comes from `seed`.

import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { DecisionSink } from '../core/random.ts';
import { RandomStream } from '../core/random.ts';
import { type BodyLimits, DEFAULT_BODY_LIMITS } from '../core/read-body.ts';
import { joinHostPort } from './address.ts';
import { createApiHandler } from './api.ts';
import { ProxyCollection } from './proxies.ts';

export interface EmbeddedToxiproxyOptions {
  host?: string;
  port?: number;
  seed?: number;
  onDecision?: DecisionSink;
  /** Bounds on API request bodies (default 1 MiB, 10 s). */
  bodyLimits?: Partial<BodyLimits>;
}

export interface EmbeddedToxiproxy {
  /** Base URL of the HTTP API, e.g. http://127.0.0.1:8474 */
  url: string;
  host: string;
  port: number;
  proxies: ProxyCollection;
  /** Closes the API server, every proxy listener and every live connection. */
  close(): Promise<void>;
}

/** How long a keep-alive connection may sit idle before the server closes it (api.go: IdleTimeout). */
const IDLE_TIMEOUT_MS = 60_000;

/** Name of the root random stream; a connection's toxic draws come from `toxiproxy/<proxy>/c<n>/<stream>/<toxic>`. */
const RANDOM_STREAM = 'toxiproxy';

export async function startEmbeddedToxiproxy(options: EmbeddedToxiproxyOptions = {}): Promise<EmbeddedToxiproxy> {
  const host = options.host ?? '127.0.0.1';
  const random = new RandomStream(options.seed ?? 0, RANDOM_STREAM, options.onDecision);
  const proxies = new ProxyCollection({ random, defaultHost: host });
  const handle = createApiHandler(proxies, { ...DEFAULT_BODY_LIMITS, ...options.bodyLimits });
  const server: Server = createServer(handle);
  // api.go's IdleTimeout. node:http's 5 s default closes a pooled connection that a client may be reusing at that
  // moment (ECONNRESET on its next request), far sooner than a real server would.
  server.keepAliveTimeout = IDLE_TIMEOUT_MS;
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host, port: options.port ?? 0 }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = address && typeof address === 'object' ? address.port : (options.port ?? 0);
  let closing: Promise<void> | undefined;
  return {
    url: `http://${joinHostPort(host, port)}`,
    host,
    port,
    proxies,
    close() {
      closing ??= new Promise<void>((resolve) => {
        proxies.clear();
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
      return closing;
    },
  };
}
