// One proxy: a listener, its live connections and its toxics (proxy.go). Disabling it closes the listener and
// every live connection; each accepted client gets its own upstream connection, dialled on accept.
import { createServer, connect as dial, type Server, type Socket } from 'node:net';
import type { RandomStream } from '../core/random.ts';
import { joinHostPort, listenHost, splitHostPort } from './address.ts';
import { ToxicCollection } from './collection.ts';
import { Connection } from './connection.ts';
import { ApiError } from './errors.ts';
import { ReusedReadBuffer } from './read-buffer.ts';
import { type ToxicJson, toxicJson, toxicJsonText } from './toxic.ts';

/** A proxy as Toxiproxy 2.12 marshals it, keys in its order: the Proxy struct's tagged fields, then `Logger`
 * (an exported *zerolog.Logger with no JSON tag and no exported fields, so always `{}`), then the toxics. */
export interface ProxyJson {
  name: string;
  listen: string;
  upstream: string;
  enabled: boolean;
  Logger: Record<string, never>;
  toxics: ToxicJson[];
}

export interface ProxyEnvironment {
  /** Root of every draw this server makes; a proxy's connections derive theirs from it by name and ordinal. */
  random: RandomStream;
  /** Where an empty listen host binds (the API server's host). */
  defaultHost: string;
}

export const ALREADY_STARTED = 'ToxicProxy already started';

const BIND_ERRORS: Record<string, string> = {
  EADDRINUSE: 'address already in use',
  EADDRNOTAVAIL: 'cannot assign requested address',
  EACCES: 'permission denied',
};

export class ToxicProxy {
  enabled = false;
  readonly toxics = new ToxicCollection();
  private server: Server | undefined;
  private readonly connections = new Set<Connection>();
  private readonly dialling = new Set<Socket>();
  /** Accepted connections so far: names each connection's random stream, so a replay draws the same values. */
  private ordinal = 0;
  /** Live (or dialling) connections closed by stop(): disabling, moving or removing the proxy. Faultline's count. */
  closedByStop = 0;

  constructor(
    readonly name: string,
    public listen: string,
    public upstream: string,
    private readonly env: ProxyEnvironment,
  ) {}

  json(): ProxyJson {
    return { ...this.headJson(), toxics: this.toxics.list().map(toxicJson) };
  }

  /** JSON.stringify(this.json()), from each toxic's kept text. */
  jsonText(): string {
    const head = JSON.stringify(this.headJson());
    return `${head.slice(0, -1)},"toxics":[${this.toxics.list().map(toxicJsonText).join(',')}]}`;
  }

  /** Every field of the proxy's JSON before its toxics. */
  private headJson(): Omit<ProxyJson, 'toxics'> {
    const { name, listen, upstream, enabled } = this;
    return { name, listen, upstream, enabled, Logger: {} };
  }

  get liveConnections(): number {
    return this.connections.size;
  }

  /** Binds the listener; `listen` becomes the real address (so ":0" reports its ephemeral port). */
  async start(): Promise<void> {
    if (this.enabled) throw new Error(ALREADY_STARTED);
    let address: { host: string; port: number };
    try {
      address = splitHostPort(this.listen);
    } catch (error) {
      throw new ApiError(`listen tcp: ${(error as Error).message}`, 500);
    }
    const host = listenHost(address.host, this.env.defaultHost);
    const server = createServer({ pauseOnConnect: true, allowHalfOpen: true }, (client) => this.accept(client));
    await new Promise<void>((resolve, reject) => {
      server.once('error', (error: NodeJS.ErrnoException) => {
        const reason = BIND_ERRORS[error.code ?? ''];
        reject(new ApiError(reason ? `listen tcp ${this.listen}: bind: ${reason}` : error.message, 500));
      });
      server.listen({ host, port: address.port }, resolve);
    });
    server.removeAllListeners('error');
    server.on('error', () => {});
    const bound = server.address();
    if (bound && typeof bound === 'object') this.listen = joinHostPort(bound.address, bound.port);
    this.server = server;
    this.enabled = true;
  }

  /** Closes the listener and every live connection. */
  stop(): void {
    if (!this.enabled) return;
    this.enabled = false;
    this.server?.close();
    this.server = undefined;
    this.closedByStop += this.dialling.size + this.connections.size;
    for (const socket of this.dialling) socket.destroy();
    this.dialling.clear();
    for (const connection of this.connections) connection.destroy();
  }

  /** Whether an update to these addresses restarts the proxy (hosts resolved first, as since 2.12.0). */
  differs(listen: string, upstream: string): boolean {
    let resolved = listen;
    try {
      const { host, port } = splitHostPort(listen);
      resolved = joinHostPort(listenHost(host, this.env.defaultHost), port);
    } catch {}
    return resolved !== this.listen || upstream !== this.upstream;
  }

  /** PATCH /proxies/{p}: a changed address restarts the proxy (dropping connections); enabled toggles it. */
  async update(input: { listen: string; upstream: string; enabled: boolean }): Promise<void> {
    if (this.differs(input.listen, input.upstream)) {
      this.stop();
      this.listen = input.listen;
      this.upstream = input.upstream;
    }
    if (input.enabled !== this.enabled) {
      if (input.enabled) await this.start();
      else this.stop();
    }
  }

  private accept(client: Socket): void {
    const server = this.server;
    const random = this.env.random.keyed(`${this.name}/c${++this.ordinal}`);
    client.setNoDelay(true);
    let target: { host: string; port: number };
    try {
      target = splitHostPort(this.upstream);
    } catch {
      client.destroy();
      return;
    }
    // Only a dialled socket takes `onread`; the accepted client socket reads through the stream.
    const reader = new ReusedReadBuffer();
    const upstream = dial({ host: target.host, port: target.port, allowHalfOpen: true, onread: reader.onread });
    this.dialling.add(upstream);
    client.on('error', () => upstream.destroy());
    upstream.once('error', () => client.destroy());
    upstream.once('connect', () => {
      this.dialling.delete(upstream);
      upstream.removeAllListeners('error');
      client.removeAllListeners('error');
      if (this.server !== server || client.destroyed) {
        upstream.destroy();
        client.destroy();
        return;
      }
      upstream.setNoDelay(true);
      const connection = new Connection(client, upstream, random, (done) => this.forget(done), reader);
      this.connections.add(connection);
      for (const link of Object.values(connection.links)) this.toxics.addLink(link);
      connection.start(this.toxics.chain);
    });
  }

  private forget(connection: Connection): void {
    this.connections.delete(connection);
    for (const link of Object.values(connection.links)) this.toxics.removeLink(link);
  }
}
