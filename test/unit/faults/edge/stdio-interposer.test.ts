// The interposer on the child's stdout: real bytes in, read back with the SDK's own ReadBuffer (the client's
// framing), so what the client would see is what is asserted. The child here is a list of chunks.
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import type { StdioFaultDirective } from '../../../../src/faults/edge/stdio/directive.ts';
import { AnswerInterposer, type Picked } from '../../../../src/faults/edge/stdio/interposer.ts';

function setup(limit = 10 * 1024 * 1024) {
  const reader = new ReadBuffer({ maxBufferSize: limit });
  const parsed: JSONRPCMessage[] = [];
  const errors: string[] = [];
  const chunks: { at: number; bytes: Buffer }[] = [];
  const picked: Picked = new Map();
  const interposer = new AnswerInterposer(
    (bytes) => {
      chunks.push({ at: performance.now(), bytes });
      try {
        reader.append(bytes);
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
    },
    picked,
    limit,
  );
  const pick = (id: number, directive: StdioFaultDirective) => picked.set(id, directive);
  const answer = (id: number): JSONRPCMessage => ({
    jsonrpc: '2.0',
    id,
    result: { content: [{ type: 'text', text: `answer ${id}` }] },
  });
  const push = async (...lines: (JSONRPCMessage | string)[]) => {
    for (const line of lines) interposer.push(Buffer.from(typeof line === 'string' ? line : serializeMessage(line)));
    await interposer.flushed();
  };
  return { interposer, parsed, errors, chunks, pick, answer, push, picked };
}

describe('stdio answer interposer', () => {
  it('lets unpicked bytes through exactly, lines split across chunks included', async () => {
    const t = setup();
    const bytes = `${serializeMessage(t.answer(1))}not json\n${serializeMessage({ jsonrpc: '2.0', method: 'notifications/message', params: {} })}`;
    t.pick(9, { kind: 'drop', direction: 'answer' }); // another id: nothing to do here
    for (let at = 0; at < bytes.length; at += 7) t.interposer.push(Buffer.from(bytes.slice(at, at + 7)));
    await t.interposer.flushed();
    expect(Buffer.concat(t.chunks.map((c) => c.bytes)).toString()).toBe(bytes);
    expect(t.parsed).toHaveLength(2);
    expect(t.errors).toEqual(['SyntaxError']); // the server's own stray line, passed on as it was
    expect(t.interposer.applied).toEqual({});
  });

  it('malformed-line: a bad line before the answer (parsing continues) or instead of it (answer lost)', async () => {
    const t = setup();
    t.pick(1, { kind: 'malformed-line', mode: 'before', text: 'debug: warmed up' });
    t.pick(2, { kind: 'malformed-line', mode: 'instead', text: 'debug: again' });
    await t.push(t.answer(1), t.answer(2), t.answer(3));
    expect(t.errors).toEqual(['SyntaxError', 'SyntaxError']);
    expect(t.parsed).toEqual([t.answer(1), t.answer(3)]);
    expect(t.interposer.applied).toEqual({ 'malformed-line': 2 });
    expect(t.picked.size).toBe(0); // each directive is used once
  });

  it('oversized-line: one line of at least `bytes`, which a reader with a smaller limit refuses', async () => {
    const big = setup();
    big.pick(1, { kind: 'oversized-line', bytes: 300_000 });
    await big.push(big.answer(1));
    expect(big.chunks.reduce((n, c) => n + c.bytes.length, 0)).toBeGreaterThanOrEqual(300_000);
    expect(big.parsed).toHaveLength(1);
    expect(big.parsed[0]).toMatchObject(big.answer(1)); // the answer itself is intact, only padded

    const limited = setup(100_000);
    limited.pick(1, { kind: 'oversized-line', bytes: 300_000 });
    await limited.push(limited.answer(1));
    expect(limited.parsed).toEqual([]);
    expect(limited.errors[0]).toMatch(/ReadBuffer exceeded maximum size of 100000 bytes/);
  });

  it("a server's own line over the limit is not held back: the reader refuses it as without the interposer", async () => {
    const t = setup(1000);
    t.interposer.push(Buffer.from('x'.repeat(600)));
    t.interposer.push(Buffer.from('x'.repeat(600)));
    await t.interposer.flushed();
    expect(t.errors[0]).toMatch(/ReadBuffer exceeded maximum size of 1000 bytes/);
    t.interposer.push(Buffer.from(`tail\n${serializeMessage(t.answer(2))}`));
    await t.interposer.flushed();
    expect(t.parsed.at(-1)).toEqual(t.answer(2)); // framing resumes after the long line's newline
  });

  it('slow-write: the answer arrives in chunks `delayMs` apart, and nothing overtakes it mid-line', async () => {
    const t = setup();
    t.pick(1, { kind: 'slow-write', chunkBytes: 16, delayMs: 30 });
    const expectedChunks = Math.ceil(serializeMessage(t.answer(1)).length / 16);
    await t.push(t.answer(1), t.answer(2));
    expect(t.errors).toEqual([]);
    expect(t.parsed).toEqual([t.answer(1), t.answer(2)]);
    expect(t.chunks.length).toBe(expectedChunks + 1);
    const span = t.chunks[expectedChunks - 1].at - t.chunks[0].at;
    // (n - 1) gaps of 30 ms; timers only run late, and 2 busy cores may stretch them.
    expect(span).toBeGreaterThanOrEqual((expectedChunks - 1) * 30 - 5);
    expect(span).toBeLessThan((expectedChunks - 1) * 30 * 3 + 500);
  });

  it('drop: the answer never reaches the reader; a request-side drop leaves the answer alone', async () => {
    const t = setup();
    t.pick(1, { kind: 'drop', direction: 'answer' });
    t.pick(2, { kind: 'drop', direction: 'request' });
    await t.push(t.answer(1), t.answer(2));
    expect(t.parsed).toEqual([t.answer(2)]);
    expect(t.errors).toEqual([]);
  });

  it('truncate: the first `keep` share of the line arrives, unparseable; later answers parse', async () => {
    const t = setup();
    t.pick(1, { kind: 'truncate', keep: 0.5 });
    await t.push(t.answer(1), t.answer(2));
    expect(t.errors).toEqual(['SyntaxError']);
    expect(t.parsed).toEqual([t.answer(2)]);
    const line = JSON.stringify(t.answer(1));
    expect(t.chunks[0].bytes.toString()).toBe(`${line.slice(0, Math.floor(line.length / 2))}\n`);
  });
});
