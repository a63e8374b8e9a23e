// Small server pieces: our event store, Retry-After parsing, redaction.
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { CANARIES, findCanaries } from '../../../mocks/canaries.ts';
import { redactDeep, redactText } from '../../../src/core/redact.ts';
import { parseRetryAfter } from '../../../src/core/retry-after.ts';
import { CountingEventStore, EventBudget } from '../../../src/server/event-store.ts';

const msg = (n: number): JSONRPCMessage => ({ jsonrpc: '2.0', method: 'notifications/message', params: { n } });

describe('CountingEventStore', () => {
  it('replays the standalone GET stream in order, skipping other streams and priming events', async () => {
    const store = new CountingEventStore();
    const first = await store.storeEvent('_GET_stream', msg(1));
    await store.storeEvent('post-1', {} as JSONRPCMessage); // a priming event
    for (let n = 2; n <= 50; n++) await store.storeEvent(n % 2 ? '_GET_stream' : 'post-1', msg(n));
    expect(await store.getStreamIdForEventId(first)).toBe('_GET_stream');
    const replayed: number[] = [];
    const stream = await store.replayEventsAfter(first, {
      send: async (_id, m) => {
        replayed.push((m as any).params.n);
      },
    });
    expect(stream).toBe('_GET_stream');
    expect(replayed).toEqual(Array.from({ length: 24 }, (_, i) => 3 + 2 * i));
  });

  it('replays a message as it was when stored (kept as its text, not the object)', async () => {
    const store = new CountingEventStore();
    const first = await store.storeEvent('s', msg(1));
    const second = msg(2);
    await store.storeEvent('s', second);
    (second as any).params.n = 99;
    const replayed: unknown[] = [];
    await store.replayEventsAfter(first, {
      send: async (_id, m) => {
        replayed.push(m);
      },
    });
    expect(replayed).toEqual([msg(2)]);
  });

  it('knows nothing of unknown ids and evicts the oldest events', async () => {
    const store = new CountingEventStore(new EventBudget(3));
    const a = await store.storeEvent('s', msg(1));
    for (let n = 2; n <= 4; n++) await store.storeEvent('s', msg(n));
    expect(store.size).toBe(3);
    expect(await store.getStreamIdForEventId(a)).toBeUndefined();
    expect(await store.getStreamIdForEventId('nope')).toBeUndefined();
  });

  it('bounds the events of every store sharing a budget in all, evicting the oldest of any store', async () => {
    const budget = new EventBudget(4);
    const sessions = Array.from({ length: 3 }, () => new CountingEventStore(budget));
    const ids: string[] = [];
    for (let n = 0; n < 9; n++) ids.push(await sessions[n % 3].storeEvent('s', msg(n)));
    expect(sessions.map((s) => s.size)).toEqual([1, 1, 2]);
    const kept = await Promise.all(ids.map((id, n) => sessions[n % 3].getStreamIdForEventId(id)));
    expect(kept.map((k) => k !== undefined)).toEqual([false, false, false, false, false, true, true, true, true]);
    // Each alone would have kept all three of its events.
    const alone = Array.from({ length: 3 }, () => new CountingEventStore(new EventBudget(4)));
    for (let n = 0; n < 9; n++) await alone[n % 3].storeEvent('s', msg(n));
    expect(alone.map((s) => s.size)).toEqual([3, 3, 3]);
  });
});

describe('parseRetryAfter', () => {
  it('reads delta seconds and HTTP-dates', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});

describe('redaction', () => {
  it('removes every planted canary and keeps ordinary text', () => {
    const text = redactText(Object.values(CANARIES).join('\n'));
    expect(findCanaries(text)).toEqual([]);
    expect(redactText('The payments service is unavailable (HTTP 503).')).toBe(
      'The payments service is unavailable (HTTP 503).',
    );
    expect(redactText('see https://reports.faultline.test/r/rep_1')).toBe('see https://reports.faultline.test/r/rep_1');
    expect(redactDeep({ a: [{ b: 'token=abc123 C:\\Users\\me\\key.pem' }] })).toEqual({
      a: [{ b: 'token=[redacted] [path redacted]' }],
    });
  });
});
