// The embedded API keeps serving while clients misbehave: a body held half-sent, fifty bodies trickled a byte at
// a time, a 10 MB body of garbage. Bodies are read before a request takes its turn, so /version, a normal
// POST /proxies and proxied traffic answer promptly throughout; the misbehaving requests last far longer than
// those checks (seconds against a 500 ms window) and are still unanswered when the checks are done.
// Embedded server only: the limits (413, 408) are ours, not Toxiproxy's.
import type { Socket } from 'node:net';
import { connect } from 'node:net';
import { performance } from 'node:perf_hooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedToxiproxy, startEmbeddedToxiproxy } from '../../../src/toxiproxy/server.ts';
import {
  createProxy,
  destroyOpenSockets,
  dial,
  http,
  openSockets,
  roundTrip,
  sleep,
  startUpstream,
  type Upstream,
} from './helpers.ts';

/** Generous on a busy 2-core machine; a blocked API would take seconds (as long as the slow client). */
const PROMPT_MS = 500;

interface RawReply {
  status: number;
  /** The status line and headers, as sent. */
  head: string;
  body: string;
}

/** Sends request headers by hand on a new socket; the body is up to the caller. */
function openRequest(port: number, method: string, path: string, headers: Record<string, string | number>): Socket {
  const socket = connect({ host: '127.0.0.1', port, noDelay: true });
  openSockets.add(socket);
  socket.on('error', () => {});
  socket.on('close', () => openSockets.delete(socket));
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  socket.write(`${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${lines.join('')}\r\n`);
  return socket;
}

/** The next complete response on `socket` (by Content-Length); rejects if the socket closes first. */
function readReply(socket: Socket): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    let buffer = Buffer.alloc(0);
    const onData = (data: Buffer) => {
      buffer = Buffer.concat([buffer, data]);
      const end = buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = buffer.toString('latin1', 0, end);
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
      if (buffer.length < end + 4 + length) return;
      socket.off('data', onData);
      socket.off('close', onClose);
      resolve({ status: Number(head.slice(9, 12)), head, body: buffer.toString('utf8', end + 4, end + 4 + length) });
    };
    const onClose = () => reject(new Error(`socket closed before a reply (${buffer.length} bytes)`));
    socket.on('data', onData);
    socket.once('close', onClose);
  });
}

/** Whether anything at all came back on `socket` so far. */
function answered(socket: Socket): () => boolean {
  let any = false;
  socket.on('data', () => {
    any = true;
  });
  return () => any;
}

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await work();
  return { ms: performance.now() - start, value };
}

describe('embedded Toxiproxy API under misbehaving clients', () => {
  let server: EmbeddedToxiproxy;
  let echo: Upstream;
  let echoProxyPort: number;
  let created = 0;

  beforeAll(async () => {
    server = await startEmbeddedToxiproxy({ seed: 1 });
    echo = await startUpstream();
    echoProxyPort = await createProxy(server.url, 'echo', echo.port);
  });
  afterEach(() => destroyOpenSockets());
  afterAll(async () => {
    await echo?.close();
    await server?.close();
  });

  /** /version, a normal POST /proxies and a proxied round trip, each answered within PROMPT_MS. */
  async function expectPrompt(): Promise<void> {
    const version = await timed(() => http(server.url, 'GET', '/version'));
    expect(version.value.status).toBe(200);
    expect(version.ms).toBeLessThan(PROMPT_MS);
    const create = await timed(() =>
      http(server.url, 'POST', '/proxies', {
        name: `normal${++created}`,
        listen: '127.0.0.1:0',
        upstream: `127.0.0.1:${echo.port}`,
      }),
    );
    expect(create.value.status).toBe(201);
    expect(create.ms).toBeLessThan(PROMPT_MS);
    const socket = await dial(echoProxyPort);
    expect(await roundTrip(socket, 'through the proxy')).toBeLessThan(PROMPT_MS);
    socket.destroy();
  }

  it('a client holding a partial body delays nobody, and its request is still pending afterwards', async () => {
    const held = openRequest(server.port, 'POST', '/proxies', { 'Content-Length': 200 });
    held.write('{"name": "hel');
    const heldAnswered = answered(held);
    await sleep(50);
    await expectPrompt();
    await expectPrompt();
    expect(heldAnswered()).toBe(false);
    expect(held.destroyed).toBe(false);
  });

  it('fifty clients trickling bodies for seconds delay nobody, and each is served once its body is in', async () => {
    const bodies = Array.from({ length: 50 }, (_, i) =>
      JSON.stringify({ name: `slow${i}`, listen: '127.0.0.1:0', upstream: `127.0.0.1:${echo.port}` }).padEnd(60),
    );
    // One byte per 70 ms: each body takes about 4 s to arrive.
    const trickled = bodies.map((body) => {
      const socket = openRequest(server.port, 'POST', '/proxies', { 'Content-Length': body.length });
      const reply = readReply(socket);
      let sent = 0;
      const timer = setInterval(() => {
        if (socket.destroyed || sent >= body.length) return clearInterval(timer);
        socket.write(body[sent++]);
      }, 70);
      return { socket, reply, answered: answered(socket) };
    });
    await sleep(200);
    for (let i = 0; i < 3; i++) await expectPrompt();
    expect(trickled.filter((client) => client.answered())).toEqual([]);
    const replies = await Promise.all(trickled.map((client) => client.reply));
    expect(replies.map((reply) => reply.status)).toEqual(bodies.map(() => 201));
    const index = (await http(server.url, 'GET', '/proxies')).json();
    expect(bodies.every((_, i) => index[`slow${i}`]?.enabled === true)).toBe(true);
  }, 20_000);

  it('a 10 MB chunked body of garbage gets 413 after 1 MiB while everyone else is served', async () => {
    const socket = openRequest(server.port, 'POST', '/proxies', { 'Transfer-Encoding': 'chunked' });
    const reply = readReply(socket);
    const block = Buffer.alloc(64 * 1024, '#');
    let sent = 0;
    // Paced (64 KiB per 5 ms, about 1 s in all) so the checks below overlap the upload.
    const timer = setInterval(() => {
      if (socket.destroyed || sent >= 10 * 1024 * 1024) return clearInterval(timer);
      socket.write(`${block.length.toString(16)}\r\n`);
      socket.write(block);
      socket.write('\r\n');
      sent += block.length;
    }, 5);
    await expectPrompt();
    const refused = await reply;
    expect(refused.status).toBe(413);
    expect(JSON.parse(refused.body)).toEqual({ error: 'request body too large: more than 1048576 bytes', status: 413 });
    expect(sent).toBeGreaterThan(1024 * 1024);
    await expectPrompt();
    clearInterval(timer);
  });

  it('a body announced larger than 1 MiB gets 413 at once; once it is sent, the connection serves again', async () => {
    const size = 2 * 1024 * 1024;
    const socket = openRequest(server.port, 'POST', '/proxies', { 'Content-Length': size });
    const refused = await readReply(socket);
    expect(refused.status).toBe(413);
    socket.write(Buffer.alloc(size, '#'));
    const next = readReply(socket);
    socket.write('GET /version HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    expect((await next).status).toBe(200);
  });

  it('a change to one proxy waiting on its toxics does not hold up changes to another proxy', async () => {
    const stuck = `stuck${++created}`;
    const free = `free${created}`;
    const stuckPort = await createProxy(server.url, stuck, echo.port);
    await createProxy(server.url, free, echo.port);
    // reset_peer's wait cannot be interrupted (as Go's time.After): a toxic change on `stuck` waits ~1.5 s for it.
    const toxic = await http(server.url, 'POST', `/proxies/${stuck}/toxics`, {
      type: 'reset_peer',
      attributes: { timeout: 1500 },
    });
    expect(toxic.status).toBe(200);
    const client = await dial(stuckPort);
    client.on('error', () => {});
    client.write('x');
    await sleep(100);
    let stuckDone = false;
    const stuckChange = http(server.url, 'POST', `/proxies/${stuck}/toxics`, { type: 'noop' }).then((response) => {
      stuckDone = true;
      return response;
    });
    await sleep(50);
    const freeChange = await timed(() => http(server.url, 'POST', `/proxies/${free}/toxics`, { type: 'noop' }));
    expect(freeChange.value.status).toBe(200);
    expect(freeChange.ms).toBeLessThan(PROMPT_MS);
    expect(stuckDone).toBe(false);
    expect((await stuckChange).status).toBe(200);
  });
});

describe('embedded Toxiproxy API body timeout', () => {
  it('answers 408 and closes the connection when a body does not arrive in time', async () => {
    const server = await startEmbeddedToxiproxy({ bodyLimits: { timeoutMs: 300 } });
    try {
      const start = performance.now();
      const socket = openRequest(server.port, 'POST', '/proxies', { 'Content-Length': 100 });
      socket.write('{"na');
      const closed = new Promise((resolve) => socket.once('close', resolve));
      const reply = await readReply(socket);
      const elapsed = performance.now() - start;
      expect(reply.status).toBe(408);
      expect(JSON.parse(reply.body)).toEqual({ error: 'request body not received within 300 ms', status: 408 });
      expect(elapsed).toBeGreaterThan(250);
      expect(elapsed).toBeLessThan(3000);
      await closed;
      expect((await http(server.url, 'GET', '/version')).status).toBe(200);
    } finally {
      destroyOpenSockets();
      await server.close();
    }
  });
});

describe('embedded Toxiproxy API keep-alive', () => {
  it("keeps an idle connection as long as api.go's IdleTimeout (60 s), and says so to pooling clients", async () => {
    const server = await startEmbeddedToxiproxy();
    try {
      const socket = openRequest(server.port, 'GET', '/version', {});
      const reply = await readReply(socket);
      expect(reply.status).toBe(200);
      expect(reply.head).toMatch(/\r\nKeep-Alive: timeout=60(\r\n|$)/i);
    } finally {
      destroyOpenSockets();
      await server.close();
    }
  });
});
