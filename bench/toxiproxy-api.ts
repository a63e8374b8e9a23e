// The embedded Toxiproxy's HTTP API under load: throughput with 50 concurrent keep-alive clients running a
// representative mix (through a light raw-socket client, which measures the server, and through fetch, which is
// what Faultline's own client sees), and /version latency with and without misbehaving clients attached (slow
// trickled bodies, one partial body held open, one 10 MB garbage body), side by side in one run. The server runs
// in a child process, as a real Toxiproxy would, so it does not share an event loop with the load. Prints
// numbers; asserts nothing. With `--real URL` (a real Toxiproxy's API, e.g. http://127.0.0.1:8474, started with
// LOG_LEVEL=error: the embedded server logs nothing per request) the same mix runs against it too, rounds
// alternating, and the ratio printed is the two measured side by side; without it the ratio is n/a (no stored
// figure stands in for a measurement).
//   Run: npm run bench:api [-- --real URL [--real-pid PID]] (with the pid, the real server's CPU per request too)
import { type AddressInfo, connect, createServer, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import {
  dropProxies,
  loadAverage,
  proxyOn,
  REAL_HINT,
  realSide,
  startEmbeddedSide,
  type ToxiproxySide,
} from './toxiproxy-sides.ts';

const ROUNDS = 3;
const CLIENTS = 50;
const WARMUP_MS = 1000;
const THROUGHPUT_MS = 5000;
const PROXIES = 5;
const SLOW_CLIENTS = 50;
const VERSION_SAMPLES = 200;
const VERSION_GAP_MS = 10;
/** Sampling stops after this long even if fewer samples came back (a blocked server answers none). */
const VERSION_BUDGET_MS = 8000;
/** A /version call that takes longer than this counts as blocked. */
const VERSION_TIMEOUT_MS = 1000;

async function startEcho(): Promise<{ port: number; server: ReturnType<typeof createServer> }> {
  const server = createServer((socket) => {
    socket.on('error', () => {});
    socket.pipe(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, server };
}

/** The PROXIES proxies the mix adds toxics to, on either server. */
async function createBenchProxies(side: ToxiproxySide, echoPort: number): Promise<void> {
  for (let i = 0; i < PROXIES; i++) await proxyOn(side, `bench${i}`, echoPort);
}

interface Reply {
  status: number;
  ms: number;
}

/** A minimal HTTP/1.1 keep-alive client on one socket, one request at a time. The load generator has to be much
 * lighter than the server (node:http or fetch cost about as much CPU per request as the server does, and share
 * two cores with it), or the numbers measure the client. A reply carries Content-Length or is chunked. */
class Connection {
  private socket: Socket | undefined;
  private buffer: Buffer = Buffer.alloc(0);
  private waiting: ((reply: { status: number } | undefined) => void) | undefined;

  constructor(private readonly url: URL) {}

  async call(method: string, path: string, body = '', timeoutMs = 10_000): Promise<Reply> {
    const start = performance.now();
    const socket = this.open();
    const head = `${method} ${path} HTTP/1.1\r\nHost: ${this.url.host}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`;
    const reply = await new Promise<{ status: number } | undefined>((resolve) => {
      const timer = setTimeout(() => socket.destroy(), timeoutMs);
      this.waiting = (result) => {
        clearTimeout(timer);
        resolve(result);
      };
      socket.write(head + body);
    });
    return reply
      ? { status: reply.status, ms: performance.now() - start }
      : { status: 0, ms: Number.POSITIVE_INFINITY };
  }

  close(): void {
    this.socket?.destroy();
  }

  private open(): Socket {
    if (this.socket && !this.socket.destroyed) return this.socket;
    const socket = connect({ host: this.url.hostname, port: Number(this.url.port), noDelay: true });
    socket.on('error', () => {});
    socket.on('data', (data: Buffer) => {
      this.buffer = this.buffer.length === 0 ? data : Buffer.concat([this.buffer, data]);
      this.parse();
    });
    socket.on('close', () => {
      this.socket = undefined;
      this.buffer = Buffer.alloc(0);
      this.settle(undefined);
    });
    this.socket = socket;
    return socket;
  }

  private parse(): void {
    const end = this.buffer.indexOf('\r\n\r\n');
    if (end < 0) return;
    const head = this.buffer.toString('latin1', 0, end);
    const bodyEnd = /\r\ntransfer-encoding: *chunked/i.test(head)
      ? chunkedEnd(this.buffer, end + 4)
      : end + 4 + Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
    if (bodyEnd === undefined || this.buffer.length < bodyEnd) return;
    this.buffer = this.buffer.subarray(bodyEnd);
    this.settle({ status: Number(head.slice(9, 12)) });
  }

  private settle(reply: { status: number } | undefined): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.(reply);
  }
}

/**
 * Where a chunked body that starts at `from` ends (after its last chunk and the empty trailer), or undefined while it
 * has not all arrived. A real toxiproxy-server (Go's net/http) sends a reply over 2 KB chunked, GET /proxies among them.
 */
function chunkedEnd(buffer: Buffer, from: number): number | undefined {
  let at = from;
  for (;;) {
    const line = buffer.indexOf('\r\n', at);
    if (line < 0) return undefined;
    const size = Number.parseInt(buffer.toString('latin1', at, line), 16);
    if (size === 0) {
      const trailerEnd = buffer.indexOf('\r\n\r\n', line);
      return trailerEnd < 0 ? undefined : trailerEnd + 4;
    }
    at = line + 2 + size + 2;
    if (at > buffer.length) return undefined;
  }
}

/** Something that sends one request at a time and answers its status. */
type Caller = (method: string, path: string, body: string) => Promise<number>;

/** The light client above: the server's capacity. */
function rawCaller(url: URL): { call: Caller; close(): void } {
  const connection = new Connection(url);
  return { call: async (...args) => (await connection.call(...args)).status, close: () => connection.close() };
}

/** fetch (undici), as Faultline's own ToxiproxyApi client calls the API: what such a client gets, bounded by the
 * client's own CPU cost on this machine. */
function fetchCaller(url: URL): { call: Caller; close(): void } {
  return {
    call: async (method, path, body) => {
      const response = await fetch(new URL(path, url), { method, body: method === 'GET' ? undefined : body });
      await response.arrayBuffer();
      return response.status;
    },
    close: () => {},
  };
}

/** One client's loop over the mix until `until`; counts replies and non-2xx answers. */
async function mixClient(
  client: { call: Caller; close(): void },
  id: number,
  until: number,
  counts: { ok: number; bad: number },
): Promise<void> {
  const toxic = JSON.stringify({ name: `c${id}`, type: 'latency', attributes: { latency: 0 } });
  const proxy = `bench${id % PROXIES}`;
  const mix: [string, string, string][] = [
    ['GET', '/proxies', ''],
    ['GET', '/version', ''],
    ['POST', `/proxies/${proxy}/toxics`, toxic],
    ['DELETE', `/proxies/${proxy}/toxics/c${id}`, ''],
  ];
  while (performance.now() < until) {
    for (const [method, path, body] of mix) {
      const status = await client.call(method, path, body);
      if (status >= 200 && status < 300) counts.ok += 1;
      else counts.bad += 1;
    }
  }
  client.close();
}

interface Throughput {
  rps: number;
  bad: number;
  /** The server process's CPU time (user + system) per request (absent for a real server the bench did not start). */
  cpuUsPerRequest?: number;
}

async function throughput(
  server: ToxiproxySide,
  newClient: () => { call: Caller; close(): void },
  ms: number,
): Promise<Throughput> {
  const counts = { ok: 0, bad: 0 };
  const cpuBefore = await server.cpu?.();
  const start = performance.now();
  await Promise.all(Array.from({ length: CLIENTS }, (_, id) => mixClient(newClient(), id, start + ms, counts)));
  const seconds = (performance.now() - start) / 1000;
  const cpuAfter = await server.cpu?.();
  const requests = counts.ok + counts.bad;
  if (!cpuBefore || !cpuAfter) return { rps: requests / seconds, bad: counts.bad };
  const cpuUs = cpuAfter.user - cpuBefore.user + (cpuAfter.system - cpuBefore.system);
  return { rps: requests / seconds, bad: counts.bad, cpuUsPerRequest: cpuUs / requests };
}

async function versionLatency(url: URL): Promise<number[]> {
  const connection = new Connection(url);
  const samples: number[] = [];
  const until = performance.now() + VERSION_BUDGET_MS;
  for (let i = 0; i < VERSION_SAMPLES && performance.now() < until; i++) {
    samples.push((await connection.call('GET', '/version', '', VERSION_TIMEOUT_MS)).ms);
    await new Promise((resolve) => setTimeout(resolve, VERSION_GAP_MS));
  }
  connection.close();
  return samples;
}

/** Opens a POST /proxies whose body arrives one byte at a time; `gapMs` 0 sends nothing after the headers. */
function slowBody(url: URL, bytes: number, gapMs: number): Socket {
  const socket = connect({ host: url.hostname, port: Number(url.port) });
  socket.on('error', () => {});
  socket.write(`POST /proxies HTTP/1.1\r\nHost: ${url.host}\r\nContent-Length: ${bytes}\r\n\r\n{`);
  if (gapMs > 0) {
    const timer = setInterval(() => (socket.destroyed ? clearInterval(timer) : socket.write(' ')), gapMs);
    socket.once('close', () => clearInterval(timer));
  }
  return socket;
}

/** Streams 10 MB of garbage as a POST /proxies body at whatever pace the server reads it. */
function garbageBody(url: URL): Socket {
  const size = 10 * 1024 * 1024;
  const socket = connect({ host: url.hostname, port: Number(url.port) });
  socket.on('error', () => {});
  socket.write(`POST /proxies HTTP/1.1\r\nHost: ${url.host}\r\nContent-Length: ${size}\r\n\r\n`);
  const block = Buffer.alloc(64 * 1024, '#');
  let sent = 0;
  const pump = () => {
    while (sent < size && !socket.destroyed) {
      sent += block.length;
      if (!socket.write(block)) return void socket.once('drain', pump);
    }
  };
  pump();
  return socket;
}

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

const ms = (value: number) => (Number.isFinite(value) ? `${value.toFixed(2)} ms` : `> ${VERSION_TIMEOUT_MS} ms`);
const blocked = (values: number[]) => values.filter((value) => value >= VERSION_TIMEOUT_MS).length;

const median = (values: number[]) => quantile(values, 0.5);
// The cores the server kept busy too: the embedded server is one event loop, a real one runs its handlers on
// every core Go's scheduler has.
const cpu = (t: Throughput) =>
  t.cpuUsPerRequest === undefined
    ? ''
    : `, server CPU ${t.cpuUsPerRequest.toFixed(0)} µs per request (${((t.cpuUsPerRequest * t.rps) / 1e6).toFixed(2)} cores)`;

async function main(): Promise<void> {
  const real = await realSide(
    'bench:api',
    "the embedded Toxiproxy's HTTP API under load, against a real one with --real",
  );
  const server = await startEmbeddedSide();
  const url = server.url;
  const echo = await startEcho();
  for (const side of [server, real]) if (side) await createBenchProxies(side, echo.port);
  console.log(`load average at start: ${loadAverage()}`);

  // Rounds alternate the two servers, so a change in the machine's load falls on both.
  const embedded: Throughput[] = [];
  const realRounds: Throughput[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    await throughput(server, () => rawCaller(url), WARMUP_MS);
    embedded.push(await throughput(server, () => rawCaller(url), THROUGHPUT_MS));
    if (real) {
      await throughput(real, () => rawCaller(real.url), WARMUP_MS);
      realRounds.push(await throughput(real, () => rawCaller(real.url), THROUGHPUT_MS));
    }
  }
  const load = embedded[embedded.length - 1];
  await throughput(server, () => fetchCaller(url), WARMUP_MS);
  const viaFetch = await throughput(server, () => fetchCaller(url), THROUGHPUT_MS);
  const quiet = await versionLatency(url);

  const misbehaving = [
    slowBody(url, 1024, 0),
    garbageBody(url),
    ...Array.from({ length: SLOW_CLIENTS }, () => slowBody(url, 1024, 100)),
  ];
  await new Promise((resolve) => setTimeout(resolve, 200));
  const underAttack = await versionLatency(url);
  for (const socket of misbehaving) socket.destroy();

  console.log(
    `API throughput, ${CLIENTS} concurrent keep-alive clients, ${ROUNDS} rounds of ${THROUGHPUT_MS / 1000} s`,
  );
  console.log('  mix per client: GET /proxies, GET /version, POST a toxic, DELETE it');
  const embeddedRps = median(embedded.map((t) => t.rps));
  console.log(
    `  embedded, light raw-socket clients: ${embedded.map((t) => t.rps.toFixed(0)).join(' / ')} requests/s (${load.bad} non-2xx in the last round)${cpu(load)}`,
  );
  if (load.cpuUsPerRequest !== undefined) {
    console.log(`    one busy core would serve ${(1e6 / load.cpuUsPerRequest).toFixed(0)} requests/s`);
  }
  if (real) {
    const realRps = median(realRounds.map((t) => t.rps));
    console.log(
      `  real ${real.url.origin}: ${realRounds.map((t) => t.rps.toFixed(0)).join(' / ')} requests/s (${realRounds[realRounds.length - 1].bad} non-2xx in the last round)${cpu(realRounds[realRounds.length - 1])}`,
    );
    console.log(
      `  ratio embedded / real, medians measured side by side: ${(embeddedRps / realRps).toFixed(2)} (goal >= 1.00)`,
    );
  } else {
    console.log(`  ratio embedded / real: n/a (${REAL_HINT})`);
  }
  console.log(
    `  embedded, fetch() clients (client-bound): ${viaFetch.rps.toFixed(0)} requests/s (${viaFetch.bad} non-2xx)${cpu(viaFetch)}`,
  );
  console.log(
    `/version latency, up to ${VERSION_SAMPLES} sequential samples in ${VERSION_BUDGET_MS / 1000} s (timeout ${VERSION_TIMEOUT_MS} ms)`,
  );
  console.log(`  ${'condition'.padEnd(56)}${'p50'.padStart(12)}${'p99'.padStart(12)}  blocked/samples`);
  const row = (label: string, values: number[]) =>
    console.log(
      `  ${label.padEnd(56)}${ms(quantile(values, 0.5)).padStart(12)}${ms(quantile(values, 0.99)).padStart(12)}  ${blocked(values)}/${values.length}`,
    );
  row('no misbehaving clients', quiet);
  row(`${SLOW_CLIENTS} trickling + 1 partial body + 1 x 10 MB garbage`, underAttack);

  console.log(`load average at end: ${loadAverage()}`);
  if (real) await dropProxies(real);
  echo.server.close();
  server.stop();
}

await main();
