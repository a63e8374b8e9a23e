// The msw preload Faultline puts into a Node server it did not write (NODE_OPTIONS `--import`, profile
// `effects.intercept`). On the server's outbound HTTP (fetch/undici and node:http, msw's node interceptors) a request
// to an intercepted dependency runs through the fault engine of the reference server's mocks (the same dependency
// fault kinds, the desired set pushed by Faultline over the side channel, src/core/intercept-wire.ts) around the
// real request; a real answer below 400 is an effect, reported (and acknowledged) before the server sees the
// answer. Every other request passes through untouched.
import { syncBuiltinESMExports } from 'node:module';
import { createConnection, type Socket } from 'node:net';
import { createInterface } from 'node:readline';
import { http } from 'msw';
import { setupServer } from 'msw/node';
import {
  BODY_LIMIT,
  type CollectorMessage,
  INTERCEPT_ENV,
  type InterceptConfig,
  type InterceptedRequest,
  interceptedBy,
  type PreloadMessage,
} from '../src/core/intercept-wire.ts';
import { FaultEngine } from './faults/engine.ts';

/** Headers the real request and the answer handed back must not copy (the body is re-sent and already decoded). */
const HOP_HEADERS = ['host', 'connection', 'content-length', 'transfer-encoding', 'content-encoding', 'keep-alive'];

class SideChannel {
  private version = -1;
  private effects = 0;
  private readonly acks = new Map<number, () => void>();
  private firstFaults!: () => void;
  readonly ready = new Promise<void>((resolve) => {
    this.firstFaults = resolve;
  });

  constructor(
    private readonly socket: Socket,
    private readonly engine: FaultEngine,
  ) {
    createInterface({ input: socket }).on('line', (line) => this.receive(JSON.parse(line) as CollectorMessage));
    // The channel is gone with Faultline: release whoever waits, the server goes on without faults.
    socket.on('close', () => {
      this.engine.set([]);
      this.firstFaults();
      for (const release of this.acks.values()) release();
    });
    socket.on('error', () => {});
    this.send({ type: 'hello', pid: process.pid });
  }

  /** Once the first fault set is in: the channel must not keep the server alive when it wants to exit. */
  unref(): void {
    this.socket.unref();
  }

  private receive(message: CollectorMessage): void {
    if (message.type === 'ack') {
      this.acks.get(message.n)?.();
      this.acks.delete(message.n);
      return;
    }
    if (message.version <= this.version) return;
    this.engine.set(message.faults);
    this.version = message.version;
    this.send({ type: 'applied', version: message.version });
    this.firstFaults();
  }

  send(message: PreloadMessage): void {
    if (!this.socket.destroyed) this.socket.write(`${JSON.stringify(message)}\n`);
  }

  /** Reports an effect and waits until Faultline has it. */
  effect(request: InterceptedRequest): Promise<void> {
    const n = ++this.effects;
    const acked = new Promise<void>((resolve) => this.acks.set(n, resolve));
    this.send({ type: 'effect', n, request });
    if (this.socket.destroyed) this.acks.get(n)?.();
    return acked;
  }
}

function withoutHopHeaders(headers: Headers): Headers {
  const copy = new Headers(headers);
  for (const name of HOP_HEADERS) copy.delete(name);
  return copy;
}

async function start(config: InterceptConfig): Promise<void> {
  // Captured before msw patches it: the real request, and the channel, never go through the interceptors.
  const realFetch = globalThis.fetch;
  const engine = new FaultEngine(config.seed, () => {});
  const socket = createConnection(config.collector);
  const channel = new SideChannel(socket, engine);
  engine.hits.onHit(() => channel.send({ type: 'hits', hits: engine.hits.all() }));
  await channel.ready;
  channel.unref();

  const server = setupServer(
    http.all('*', async ({ request }) => {
      if (!interceptedBy(config.dependencies, request.method, request.url)) return undefined;
      const body = request.method === 'GET' || request.method === 'HEAD' ? '' : await request.clone().text();
      return engine.run('intercepted', request, async () => {
        const real = await realFetch(request.url, {
          method: request.method,
          headers: withoutHopHeaders(request.headers),
          ...(body !== '' && { body }),
          redirect: 'manual',
          signal: request.signal,
        });
        const answer = await real.arrayBuffer();
        if (real.status < 400) {
          const effect = { method: request.method, url: request.url, status: real.status, body };
          await channel.effect({ ...effect, body: body.slice(0, BODY_LIMIT) });
        }
        const empty = real.status === 204 || real.status === 304;
        return new Response(empty ? null : answer, {
          status: real.status,
          statusText: real.statusText,
          headers: withoutHopHeaders(real.headers),
        });
      });
    }),
  );
  server.listen({ onUnhandledRequest: 'bypass' });
  // msw patches node:http's CommonJS exports; ESM named imports (`import { request } from 'node:http'`) see the
  // patched functions only once the builtins' ESM exports are synced.
  syncBuiltinESMExports();
}

const raw = process.env[INTERCEPT_ENV];
if (raw) await start(JSON.parse(raw) as InterceptConfig);
