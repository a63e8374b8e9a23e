// Shared fixtures: the servers under test (embedded always, real Toxiproxy when TOXIPROXY_URL is set), the
// proxies a test file owns on them, loopback upstreams, and small socket helpers. Timing assertions use
// tolerance windows, never exact values.
import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { startEmbeddedToxiproxy } from '../../../src/toxiproxy/server.ts';

export interface Target {
  name: string;
  url: string;
  /** Other test files (and other runs) may use the same server: see OwnedProxies. */
  shared: boolean;
  close(): Promise<void>;
}

export interface TargetSpec {
  name: string;
  /** Why the suite is skipped, when it is. */
  skip?: string;
  shared: boolean;
  start(): Promise<Target>;
}

export const targetSpecs: TargetSpec[] = [
  {
    name: 'embedded',
    shared: false,
    async start() {
      const server = await startEmbeddedToxiproxy({ seed: 42 });
      return { name: 'embedded', url: server.url, shared: false, close: () => server.close() };
    },
  },
  {
    name: 'real Toxiproxy',
    skip: process.env.TOXIPROXY_URL ? undefined : 'TOXIPROXY_URL not set: no real Toxiproxy to compare against',
    shared: true,
    async start() {
      const url = process.env.TOXIPROXY_URL!.replace(/\/+$/, '');
      return { name: 'real', url, shared: true, close: async () => {} };
    },
  },
];

/** Why a test that calls POST /reset runs only against the embedded server. */
export const RESET_SKIP = 'POST /reset changes every proxy of a shared server: embedded server only';

/** A suite title that says why it is skipped. */
export function targetTitle(spec: TargetSpec, what: string): string {
  return spec.skip ? `${what} against ${spec.name} (skipped: ${spec.skip})` : `${what} against ${spec.name}`;
}

export interface RawResponse {
  status: number;
  contentType: string | null;
  headers: Headers;
  text: string;
  json(): any;
}

export async function http(
  url: string,
  method: string,
  path: string,
  body?: unknown,
  headers?: Record<string, string>,
): Promise<RawResponse> {
  const response = await fetch(url + path, {
    method,
    headers,
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    headers: response.headers,
    text,
    json: () => JSON.parse(text),
  };
}

/** The proxies one test file owns on a server other files may share: every name starts with the file's prefix,
 * a request that changes a proxy must name an owned one (anything else throws before it is sent), POST /reset is
 * refused on a shared server, and cleanup deletes owned proxies only. */
export class OwnedProxies {
  readonly prefix: string;
  private count = 0;

  constructor(
    private readonly target: () => Target,
    file: string,
  ) {
    this.prefix = `${file}-${process.pid}-`;
  }

  get url(): string {
    return this.target().url;
  }

  /** A fresh owned name; nothing is created. */
  name(label: string): string {
    return `${this.prefix}${label}-${++this.count}`;
  }

  owns(name: string): boolean {
    return name.startsWith(this.prefix);
  }

  /** `http` against the target, refusing any change outside this file's proxies. */
  async http(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<RawResponse> {
    if (method !== 'GET') this.checkChange(path, body);
    return http(this.url, method, path, body, headers);
  }

  /** GET /proxies narrowed to this file's proxies. */
  async list(): Promise<Record<string, any>> {
    const all = (await http(this.url, 'GET', '/proxies')).json() as Record<string, any>;
    return Object.fromEntries(Object.entries(all).filter(([name]) => this.owns(name)));
  }

  /** Creates an owned proxy in front of `upstreamPort`; answers its listening port. */
  async createProxy(name: string, upstreamPort: number, extra: object = {}): Promise<number> {
    this.checkChange('/proxies', { name });
    return createProxy(this.url, name, upstreamPort, extra);
  }

  async addToxic(proxy: string, toxic: object): Promise<void> {
    this.checkChange(`/proxies/${encodeURIComponent(proxy)}/toxics`);
    return addToxic(this.url, proxy, toxic);
  }

  /** Deletes this file's proxies, and no other. */
  async cleanup(): Promise<void> {
    const names = Object.keys(await this.list());
    await Promise.all(names.map((name) => http(this.url, 'DELETE', `/proxies/${encodeURIComponent(name)}`)));
  }

  private checkChange(path: string, body?: unknown): void {
    const refuse = (why: string) => {
      throw new Error(`test fixture refused ${path}: ${why}`);
    };
    if (path === '/reset' && this.target().shared) refuse(RESET_SKIP);
    const named = /^\/proxies\/([^/]+)/.exec(path);
    if (named && !this.owns(decodeURIComponent(named[1]))) refuse(`proxy not owned by prefix ${this.prefix}`);
    const entries = path === '/populate' && Array.isArray(body) ? body : path === '/proxies' ? [body] : [];
    for (const entry of entries) {
      const name = entry && typeof entry === 'object' ? (entry as { name?: unknown }).name : undefined;
      if (typeof name === 'string' && name !== '' && !this.owns(name)) refuse(`${name} is not owned by ${this.prefix}`);
    }
  }
}

export interface Upstream {
  port: number;
  server: Server;
  sockets: Set<Socket>;
  close(): Promise<void>;
}

/** A loopback TCP server; `onSocket` decides what it does (echo by default). */
export async function startUpstream(onSocket: (socket: Socket) => void = (s) => s.pipe(s)): Promise<Upstream> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
    onSocket(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    server,
    sockets,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Creates a proxy on a server the caller started itself (shared servers go through OwnedProxies). */
export async function createProxy(
  url: string,
  name: string,
  upstreamPort: number,
  extra: object = {},
): Promise<number> {
  const response = await http(url, 'POST', '/proxies', {
    name,
    listen: '127.0.0.1:0',
    upstream: `127.0.0.1:${upstreamPort}`,
    ...extra,
  });
  if (response.status !== 201) throw new Error(`create proxy: ${response.status} ${response.text}`);
  const listen: string = response.json().listen;
  return Number(listen.slice(listen.lastIndexOf(':') + 1));
}

export async function addToxic(url: string, proxy: string, toxic: object): Promise<void> {
  const response = await http(url, 'POST', `/proxies/${proxy}/toxics`, toxic);
  if (response.status !== 200) throw new Error(`add toxic: ${response.status} ${response.text}`);
}

/** Sockets opened by a test, destroyed in afterEach. */
export const openSockets = new Set<Socket>();

export async function dial(port: number): Promise<Socket> {
  const socket = connect({ port, host: '127.0.0.1', noDelay: true });
  openSockets.add(socket);
  socket.on('close', () => openSockets.delete(socket));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return socket;
}

export function destroyOpenSockets(): void {
  for (const socket of openSockets) socket.destroy();
  openSockets.clear();
}

/** Writes `message` and waits until as many bytes came back; answers the round trip in ms. */
export async function roundTrip(socket: Socket, message = 'ping'): Promise<number> {
  const start = performance.now();
  let received = 0;
  await new Promise<void>((resolve, reject) => {
    const onData = (data: Buffer) => {
      received += data.length;
      if (received >= message.length) done();
    };
    const onClose = () => {
      done();
      reject(new Error('closed before the reply'));
    };
    const done = () => {
      socket.off('data', onData);
      socket.off('close', onClose);
      resolve();
    };
    socket.on('data', onData);
    socket.on('close', onClose);
    socket.write(message);
  });
  return performance.now() - start;
}

export interface Collected {
  bytes: number;
  chunks: number;
  ended: 'end' | 'close' | 'error';
  error?: NodeJS.ErrnoException;
  /** performance.now() of the first byte and of the close. */
  firstByteAt?: number;
  closedAt: number;
}

/** Reads until the socket closes, or `timeoutMs` passes (then rejects). */
export function collect(socket: Socket, timeoutMs = 5000): Promise<Collected> {
  return new Promise((resolve, reject) => {
    const result: Collected = { bytes: 0, chunks: 0, ended: 'close', closedAt: 0 };
    const timer = setTimeout(
      () => reject(new Error(`socket still open after ${timeoutMs} ms (${result.bytes} bytes)`)),
      timeoutMs,
    );
    socket.on('data', (data: Buffer) => {
      result.firstByteAt ??= performance.now();
      result.bytes += data.length;
      result.chunks += 1;
    });
    socket.on('end', () => {
      if (result.ended === 'close') result.ended = 'end';
    });
    socket.on('error', (error) => {
      result.ended = 'error';
      result.error = error;
    });
    socket.on('close', () => {
      clearTimeout(timer);
      result.closedAt = performance.now();
      resolve(result);
    });
  });
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
