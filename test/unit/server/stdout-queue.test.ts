import { PassThrough, Writable } from 'node:stream';
import { StdioServerTransport as LegacyStdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StdioServerTransport as ModernStdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { afterEach, describe, expect, it } from 'vitest';
import { queuedStdout } from '../../../src/server/stdout-queue.ts';

/** A stdout whose reader has stopped: every write is held until `release` lets the reader go on. */
function stalledReader() {
  const received: string[] = [];
  const held: (() => void)[] = [];
  const out = new Writable({
    highWaterMark: 64,
    write(chunk: Buffer, _encoding, callback) {
      received.push(chunk.toString('utf8'));
      held.push(callback);
    },
  });
  const release = async (lines: number) => {
    while (received.join('').split('\n').length - 1 < lines || held.length > 0) {
      held.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  return { out, received, release };
}

const transports = {
  'SDK 1.32': (out: NodeJS.WritableStream) => new LegacyStdioServerTransport(new PassThrough(), out as Writable),
  'SDK 2.4': (out: NodeJS.WritableStream) => new ModernStdioServerTransport(new PassThrough(), out as Writable),
};

const warnings: Error[] = [];
const onWarning = (w: Error) => warnings.push(w);
afterEach(() => {
  process.off('warning', onWarning);
  warnings.length = 0;
});

const ANSWERS = 30;
const answer = (id: number) => ({ jsonrpc: '2.0' as const, id, result: {} });

describe.each(Object.entries(transports))('the reference server stdout behind %s', (_sdk, transportOn) => {
  it('without the queue, every answer behind a stalled reader adds a drain listener and Node warns (control)', async () => {
    process.on('warning', onWarning);
    const { out, release } = stalledReader();
    const transport = transportOn(out);
    const sent = Array.from({ length: ANSWERS }, (_, i) => transport.send(answer(i)));
    expect(out.listenerCount('drain')).toBeGreaterThan(10);
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings.map((w) => w.name)).toContain('MaxListenersExceededWarning');
    await release(ANSWERS);
    await Promise.all(sent);
  });

  it('with the queue: one drain listener at most, no warning, every answer in order once the reader goes on', async () => {
    process.on('warning', onWarning);
    const { out, received, release } = stalledReader();
    const queue = queuedStdout(out);
    const transport = transportOn(queue);
    await Promise.all(Array.from({ length: ANSWERS }, (_, i) => transport.send(answer(i))));
    expect(out.listenerCount('drain')).toBeLessThanOrEqual(1);
    expect(queue.listenerCount('drain')).toBe(0);
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings).toEqual([]);
    expect(received.length).toBeLessThan(ANSWERS); // the reader really stalled: answers waited in the queue
    await release(ANSWERS);
    const ids = received
      .join('')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line).id);
    expect(ids).toEqual(Array.from({ length: ANSWERS }, (_, i) => i));
    expect(warnings).toEqual([]);
  });
});
