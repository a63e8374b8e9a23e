// A link with no toxic forwards each chunk straight to the other socket; a toxic added to a live connection moves
// it onto the toxic chain, and removing the last toxic moves it back. Across every such switch, in both
// directions, no byte may be lost, duplicated or reordered: an echo stream of numbered words must come back
// exactly as sent while toxics come and go mid-stream.
import type { Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type EmbeddedToxiproxy, startEmbeddedToxiproxy } from '../../../src/toxiproxy/server.ts';
import { addToxic, createProxy, dial, http, startUpstream, type Upstream } from './helpers.ts';

const BLOCK_WORDS = 4096;
/** Echoed bytes that must cross each phase, so every switch happens with data in flight. */
const PHASE_BYTES = 256 * 1024;
/** No echoed byte for this long while some are owed: they are lost (the comparison below says where). */
const STALL_MS = 5000;
/** A toxic that has not acted once by this many echoed bytes after it was added does not act at all. */
const HIT_WITHIN_BYTES = 64 * 1024 * 1024;
/** Below the socket's 16 KiB high-water mark: a queued write of this size does not pause the proxy's reading. */
const SMALL_WRITE = 4096;

/** Offset of the first byte where `received` departs from `sent` (a lost, extra or moved byte), or -1. */
function firstMismatch(sent: Buffer, received: Buffer): number {
  const length = Math.min(sent.length, received.length);
  for (let i = 0; i < length; i++) if (sent[i] !== received[i]) return i;
  return sent.length === received.length ? -1 : length;
}

/** Writes blocks of consecutive 32-bit word numbers as fast as the socket takes them, until stopped. */
function numberedWriter(socket: Socket): { sent: Buffer[]; stop(): void } {
  const sent: Buffer[] = [];
  let word = 0;
  let stopped = false;
  const pump = () => {
    while (!stopped) {
      const block = Buffer.allocUnsafe(BLOCK_WORDS * 4);
      for (let i = 0; i < BLOCK_WORDS; i++) block.writeUInt32LE(word++, i * 4);
      sent.push(block);
      if (!socket.write(block)) return void socket.once('drain', pump);
    }
  };
  pump();
  return { sent, stop: () => (stopped = true) };
}

describe('switching a live link between the direct path and the toxic chain', () => {
  let server: EmbeddedToxiproxy;
  let echo: Upstream;

  // A server per test: a keep-alive API connection left idle by a long test can be closed by the server just as
  // the next test's first request reuses it (ECONNRESET under load); a new server is a new origin.
  beforeEach(async () => {
    server = await startEmbeddedToxiproxy({ seed: 7 });
    echo = await startUpstream();
  });
  afterEach(async () => {
    await echo.close();
    await server.close();
  });

  it('the mismatch check finds a lost, a reordered and an extra byte (negative control)', () => {
    const sent = Buffer.from([1, 2, 3, 4, 5, 6]);
    expect(firstMismatch(sent, Buffer.from(sent))).toBe(-1);
    expect(firstMismatch(sent, Buffer.from([1, 2, 4, 5, 6]))).toBe(2);
    expect(firstMismatch(sent, Buffer.from([1, 2, 4, 3, 5, 6]))).toBe(2);
    expect(firstMismatch(sent, Buffer.from([1, 2, 3, 4, 5, 6, 6]))).toBe(6);
  });

  it('toxics added and removed mid-stream in both directions lose, duplicate and reorder nothing', {
    timeout: 60_000,
  }, async () => {
    const port = await createProxy(server.url, 'switch', echo.port);
    const socket = await dial(port);
    const received: Buffer[] = [];
    let receivedBytes = 0;
    socket.on('data', (data: Buffer) => {
      received.push(data);
      receivedBytes += data.length;
    });
    // Waits until `done`, or until STALL_MS pass with no echoed byte arriving (bytes were lost).
    const until = async (done: () => boolean) => {
      let last = receivedBytes;
      let lastAt = Date.now();
      while (!done() && Date.now() - lastAt < STALL_MS && !socket.destroyed) {
        await new Promise((resolve) => setTimeout(resolve, 5));
        if (receivedBytes > last) [last, lastAt] = [receivedBytes, Date.now()];
      }
    };
    const crossed = (bytes: number) => {
      const target = receivedBytes + bytes;
      return until(() => receivedBytes >= target);
    };
    const { toxics: collection } = server.proxies.get('switch');
    const hits: Record<string, number> = {};
    // Bytes already past the toxic's link (in socket buffers) keep arriving after it is added: wait until it has
    // acted on this stream, then let more cross, so it holds data when it is removed.
    const acting = async (name: string) => {
      const cap = receivedBytes + HIT_WITHIN_BYTES;
      await until(() => (collection.hitsOf(name) ?? 0) > 0 || receivedBytes > cap);
      await crossed(PHASE_BYTES);
      hits[name] = Math.min(hits[name] ?? Number.POSITIVE_INFINITY, collection.hitsOf(name) ?? 0);
    };
    const writer = numberedWriter(socket);
    await crossed(PHASE_BYTES);
    // Each toxic holds, delays or splits chunks on its way, so its removal flushes data it still holds.
    const toxics = [
      { name: 'lag-down', type: 'latency', stream: 'downstream', attributes: { latency: 3, jitter: 2 } },
      { name: 'lag-up', type: 'latency', stream: 'upstream', attributes: { latency: 2 } },
      { name: 'slices', type: 'slicer', stream: 'downstream', attributes: { average_size: 700, size_variation: 300 } },
      { name: 'rate', type: 'bandwidth', stream: 'upstream', attributes: { rate: 20_000 } },
    ];
    for (const toxic of toxics) {
      await addToxic(server.url, 'switch', toxic);
      await acting(toxic.name);
      expect((await http(server.url, 'DELETE', `/proxies/switch/toxics/${toxic.name}`)).status).toBe(204);
      await crossed(PHASE_BYTES);
    }
    // Two at once, one per direction, removed in the order added.
    await addToxic(server.url, 'switch', toxics[0]);
    await addToxic(server.url, 'switch', toxics[3]);
    await acting(toxics[0].name);
    await acting(toxics[3].name);
    await http(server.url, 'DELETE', '/proxies/switch/toxics/lag-down');
    await crossed(PHASE_BYTES);
    await http(server.url, 'DELETE', '/proxies/switch/toxics/rate');
    writer.stop();
    const sent = Buffer.concat(writer.sent);
    await crossed(sent.length - receivedBytes);

    expect(firstMismatch(sent, Buffer.concat(received))).toBe(-1);
    for (const toxic of toxics) expect(hits[toxic.name], toxic.name).toBeGreaterThan(0);
    socket.destroy();
  });

  it('a reader that stops reading, so the proxy queues writes, still gets every byte in order', {
    timeout: 60_000,
  }, async () => {
    const words = 4 * 1024 * 1024;
    const sent = Buffer.allocUnsafe(words * 4);
    for (let i = 0; i < words; i++) sent.writeUInt32LE(i, i * 4);
    // Small writes, one per turn of the event loop, so the proxy reads many small chunks; the first time the
    // sender is pushed back, every buffer between it and the reader is full.
    let blocked!: () => void;
    const pushedBack = new Promise<void>((resolve) => (blocked = resolve));
    const sender = await startUpstream((socket) => {
      let offset = 0;
      const next = () => {
        if (offset >= sent.length) return void socket.end();
        const block = sent.subarray(offset, offset + SMALL_WRITE);
        offset += SMALL_WRITE;
        if (socket.write(block)) setImmediate(next);
        else {
          blocked();
          socket.once('drain', next);
        }
      };
      next();
    });
    const port = await createProxy(server.url, 'stalled-reader', sender.port);
    const socket = await dial(port);
    socket.pause();
    const received: Buffer[] = [];
    socket.on('data', (data: Buffer) => received.push(data));
    await pushedBack;
    socket.resume();
    await new Promise((resolve) => socket.once('close', resolve));
    await sender.close();
    expect(firstMismatch(sent, Buffer.concat(received))).toBe(-1);
  });
});
