import { describe, expect, it } from 'vitest';
import { cassetteAnswers, UNRECORDED_METHOD, UNRECORDED_PARAMS } from '../../../src/cassette/answers.ts';
import type { Cassette, CassetteLine } from '../../../src/cassette/format.ts';

const header = { cassette: 'faultline' as const, version: 1 as const, recordedAt: 'then', target: 'server' };
const line = (session: string, from: CassetteLine['from'], message: Record<string, unknown>): CassetteLine => ({
  t: 0,
  session,
  from,
  message: { jsonrpc: '2.0', ...message },
});
const call = (id: number, q: string, meta?: object) => ({
  id,
  method: 'tools/call',
  params: { name: 'search', arguments: { q }, ...(meta && { _meta: meta }) },
});
const result = (id: number, text: string) => ({ id, result: { content: [{ type: 'text', text }] } });

const cassette: Cassette = {
  header,
  lines: [
    line('s1', 'client', { id: 0, method: 'initialize', params: { clientInfo: { name: 'recorder' } } }),
    line('s1', 'server', { id: 0, result: { protocolVersion: '2025-11-25' } }),
    line('s1', 'client', call(1, 'a', { progressToken: 7 })),
    line('s2', 'client', call(1, 'a')),
    // Ids repeat across sessions: each answer belongs to its own session's request.
    line('s2', 'server', result(1, 'second')),
    line('s1', 'server', result(1, 'first')),
    line('s1', 'client', { id: 2, method: 'tools/call', params: { name: 'pay', arguments: { token: 'sk_live_abc' } } }),
    line('s1', 'server', result(2, 'paid')),
  ],
};

describe('cassette answers', () => {
  it('match by method and params, never by id or _meta; the asking id is put on the answer', () => {
    const answers = cassetteAnswers(cassette);
    expect(answers.answer({ jsonrpc: '2.0', ...call(99, 'a', { progressToken: 1 }) })).toEqual({
      jsonrpc: '2.0',
      id: 99,
      result: { content: [{ type: 'text', text: 'first' }] },
    });
  });

  it('identical requests get the recorded answers in recorded order, then the last one again', () => {
    const answers = cassetteAnswers(cassette);
    const texts = [1, 2, 3].map(
      (id) => (answers.answer(call(id, 'a')) as { result: { content: [{ text: string }] } }).result.content[0].text,
    );
    expect(texts).toEqual(['first', 'second', 'second']);
    expect(answers.counts).toEqual({ matched: 3, unmatched: 0 });
  });

  it('initialize matches by method alone (client names differ between runs)', () => {
    const answers = cassetteAnswers(cassette);
    expect(
      answers.answer({ id: 5, method: 'initialize', params: { clientInfo: { name: 'faultline' } } }),
    ).toMatchObject({
      id: 5,
      result: { protocolVersion: '2025-11-25' },
    });
  });

  it('a secret is compared in its redacted form, as the cassette holds it', () => {
    const redacted = cassetteAnswers({
      header,
      lines: cassette.lines.map((l) =>
        l.message.id === 2 && l.from === 'client'
          ? line('s1', 'client', {
              id: 2,
              method: 'tools/call',
              params: { name: 'pay', arguments: { token: '[redacted]' } },
            })
          : l,
      ),
    });
    expect(
      redacted.answer({ id: 8, method: 'tools/call', params: { name: 'pay', arguments: { token: 'sk_live_xyz' } } }),
    ).toMatchObject({
      result: { content: [{ text: 'paid' }] },
    });
  });

  it('an unrecorded request is an error that says which part was never recorded; notifications get nothing', () => {
    const answers = cassetteAnswers(cassette);
    expect(answers.answer(call(3, 'b'))).toMatchObject({ id: 3, error: { code: UNRECORDED_PARAMS } });
    expect(answers.answer({ id: 4, method: 'resources/list' })).toMatchObject({
      id: 4,
      error: { code: UNRECORDED_METHOD },
    });
    expect(answers.answer({ method: 'notifications/initialized' })).toBeUndefined();
    expect(answers.counts.unmatched).toBe(2);
  });
});
