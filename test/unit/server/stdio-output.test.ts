// The stdio server's output decorator: real bytes on a stream, read back with the SDK's own ReadBuffer (the
// client's framing), so what the client would see is what is asserted.
import { PassThrough } from 'node:stream';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { STDIO_FAULT_META, type StdioFaultDirective } from '../../../src/faults/edge/stdio/directive.ts';
import { StdioOutputFaults } from '../../../src/server/stdio-output.ts';

/** Stands in for StdioServerTransport: writes each message as one line on `out`. */
class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  constructor(readonly out: PassThrough) {}
  async start(): Promise<void> {}
  async close(): Promise<void> {}
  async send(message: JSONRPCMessage): Promise<void> {
    this.out.write(serializeMessage(message));
  }
}

function setup(limit?: number) {
  const out = new PassThrough();
  const inner = new LineTransport(out);
  const faults = new StdioOutputFaults(inner, out);
  const seen: JSONRPCMessage[] = [];
  faults.onmessage = (m) => seen.push(m);
  const reader = new ReadBuffer(limit ? { maxBufferSize: limit } : undefined);
  const parsed: JSONRPCMessage[] = [];
  const errors: string[] = [];
  const chunks: { at: number; bytes: number }[] = [];
  out.on('data', (chunk: Buffer) => {
    chunks.push({ at: performance.now(), bytes: chunk.length });
    try {
      reader.append(chunk);
    } catch (error) {
      errors.push((error as Error).message);
      return;
    }
    for (;;) {
      try {
        const message = reader.readMessage();
        if (!message) break;
        parsed.push(message);
      } catch (error) {
        errors.push((error as Error).name);
      }
    }
  });
  /** A tools/call arriving from the client, tagged or not. */
  const request = (id: number, directive?: StdioFaultDirective) =>
    inner.onmessage?.({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: {
        name: 'x',
        _meta: { 'faultline/traceId': `op-${id}`, ...(directive && { [STDIO_FAULT_META]: directive }) },
      },
    });
  const answer = (id: number): JSONRPCMessage => ({
    jsonrpc: '2.0',
    id,
    result: { content: [{ type: 'text', text: `answer ${id}` }] },
  });
  return { faults, seen, parsed, errors, chunks, request, answer };
}

const settle = () => new Promise((r) => setImmediate(r));

describe('stdio output faults (server side)', () => {
  it('strips the tag before the server sees the request and leaves untagged answers alone', async () => {
    const t = setup();
    t.request(1, { kind: 'malformed-line', mode: 'before', text: 'x' });
    t.request(2);
    expect(t.seen.map((m) => (m as { params: { _meta: object } }).params._meta)).toEqual([
      { 'faultline/traceId': 'op-1' },
      { 'faultline/traceId': 'op-2' },
    ]);
    await t.faults.send(t.answer(2));
    await settle();
    expect(t.parsed).toEqual([t.answer(2)]);
    expect(t.errors).toEqual([]);
  });

  it('malformed-line: a bad line before the answer (parsing continues) or instead of it (answer lost)', async () => {
    const t = setup();
    t.request(1, { kind: 'malformed-line', mode: 'before', text: 'debug: warmed up' });
    t.request(2, { kind: 'malformed-line', mode: 'instead', text: 'debug: again' });
    t.request(3);
    await t.faults.send(t.answer(1));
    await t.faults.send(t.answer(2));
    await t.faults.send(t.answer(3));
    await settle();
    expect(t.errors).toEqual(['SyntaxError', 'SyntaxError']);
    expect(t.parsed).toEqual([t.answer(1), t.answer(3)]);
    expect(t.faults.applied).toEqual({ 'malformed-line': 2 });
  });

  it('oversized-line: one line of at least `bytes`, which a reader with a smaller limit refuses', async () => {
    const big = setup();
    big.request(1, { kind: 'oversized-line', bytes: 300_000 });
    await big.faults.send(big.answer(1));
    await settle();
    const total = big.chunks.reduce((n, c) => n + c.bytes, 0);
    expect(total).toBeGreaterThanOrEqual(300_000);
    expect(big.parsed).toHaveLength(1);
    expect(big.parsed[0]).toMatchObject(big.answer(1)); // the answer itself is intact, only padded

    const limited = setup(100_000);
    limited.request(1, { kind: 'oversized-line', bytes: 300_000 });
    await limited.faults.send(limited.answer(1));
    await settle();
    expect(limited.parsed).toEqual([]);
    expect(limited.errors[0]).toMatch(/ReadBuffer exceeded maximum size of 100000 bytes/);
  });

  it('slow-write: the answer arrives in chunks `delayMs` apart, and nothing overtakes it mid-line', async () => {
    const t = setup();
    t.request(1, { kind: 'slow-write', chunkBytes: 16, delayMs: 30 });
    t.request(2);
    const line = serializeMessage(t.answer(1));
    const expectedChunks = Math.ceil(line.length / 16);
    const slow = t.faults.send(t.answer(1));
    const fast = t.faults.send(t.answer(2)); // queued behind the slow one
    await Promise.all([slow, fast]);
    await settle();
    expect(t.errors).toEqual([]);
    expect(t.parsed).toEqual([t.answer(1), t.answer(2)]);
    expect(t.chunks.length).toBe(expectedChunks + 1);
    const span = t.chunks[expectedChunks - 1].at - t.chunks[0].at;
    // (n - 1) gaps of 30 ms; timers only run late, and 2 busy cores may stretch them.
    expect(span).toBeGreaterThanOrEqual((expectedChunks - 1) * 30 - 5);
    expect(span).toBeLessThan((expectedChunks - 1) * 30 * 3 + 500);
  });
});
