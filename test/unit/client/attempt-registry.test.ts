// How a connection finds the attempt an HTTP request belongs to without an async context: by the trace id and
// attempt number a tools/call carries, by the event id a resumption names, or as the one request made outside any
// attempt. Then, against a real SDK server, two attempts in flight on one connection: each keeps the log messages
// of its own stream, and only the one whose stream breaks ends with its answer lost.
import type { ServerResponse } from 'node:http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attemptStep } from '../../../src/client/attempt.ts';
import type { AttemptHttp } from '../../../src/client/attempt-http.ts';
import { AttemptRegistry } from '../../../src/client/attempt-registry.ts';
import { Connection } from '../../../src/client/connection.ts';
import type { PolicySession } from '../../../src/client/policy.ts';
import { sleep } from '../../../src/core/sleep.ts';
import { ATTEMPT_META_KEY, TRACE_META_KEY } from '../../../src/core/wire.ts';
import { opRun } from './fakes.ts';
import { statelessServer } from './stateless-server.ts';

const call = (trace: string, attempt: number) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'x', _meta: { [TRACE_META_KEY]: trace, [ATTEMPT_META_KEY]: attempt } },
  });
const ping = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' });

describe('AttemptRegistry', () => {
  it('finds a tools/call by its trace id and attempt number, only while that attempt runs', async () => {
    const attempts = new AttemptRegistry();
    const [one, two]: AttemptHttp[] = [{}, {}];
    await attempts.during('op-1', 1, one, () =>
      attempts.during('op-2', 1, two, async () => {
        expect(attempts.of('POST', call('op-1', 1), undefined)).toBe(one);
        expect(attempts.of('POST', call('op-2', 1), undefined)).toBe(two);
        // Another attempt of the same op, and a request that carries no trace, are nobody's.
        expect(attempts.of('POST', call('op-1', 2), undefined)).toBeUndefined();
        expect(attempts.of('POST', ping, undefined)).toBeUndefined();
      }),
    );
    expect(attempts.of('POST', call('op-1', 1), undefined)).toBeUndefined();
  });

  it('gives a resumption to the attempt whose stream carried its event id, until that attempt ends', async () => {
    const attempts = new AttemptRegistry();
    const http: AttemptHttp = {};
    await attempts.during('op-1', 1, http, async () => {
      expect(attempts.of('GET', undefined, 'e-1')).toBeUndefined();
      attempts.noteEventId(http, 'e-1');
      attempts.noteEventId(http, 'e-2');
      expect(attempts.of('GET', undefined, 'e-2')).toBe(http);
      // Only the last id: the SDK resumes from it.
      expect(attempts.of('GET', undefined, 'e-1')).toBeUndefined();
      // A GET that resumes nothing (the listen stream) is nobody's.
      expect(attempts.of('GET', undefined, undefined)).toBeUndefined();
    });
    expect(attempts.of('GET', undefined, 'e-2')).toBeUndefined();
  });

  it('gives the requests without a trace to a request made outside any attempt, only while it runs', async () => {
    const attempts = new AttemptRegistry();
    const own: AttemptHttp = {};
    await attempts.outside(own, async () => {
      expect(attempts.of('POST', ping, undefined)).toBe(own);
      expect(attempts.of('POST', call('op-1', 1), undefined)).toBeUndefined();
    });
    expect(attempts.of('POST', ping, undefined)).toBeUndefined();
  });

  it('names the attempt of a broken stream only for the words the SDK just said about it', () => {
    const attempts = new AttemptRegistry();
    const http: AttemptHttp = {};
    attempts.streamBroke(http, 'TypeError: terminated');
    expect(attempts.takeBroken(new Error('SSE stream disconnected: TypeError: other'))).toBeUndefined();
    attempts.streamBroke(http, 'TypeError: terminated');
    expect(attempts.takeBroken(new Error('SSE stream disconnected: TypeError: terminated'))).toBe(http);
    // Taken once: a later report of the same words is another stream's.
    expect(attempts.takeBroken(new Error('SSE stream disconnected: TypeError: terminated'))).toBeUndefined();
  });
});

/** A stateless SDK server: `cut` logs, then its socket is destroyed mid-stream; `slow` logs, then answers. */
function chattyServer(res: ServerResponse): Server {
  const server = new Server({ name: 'chatty', version: '1' }, { capabilities: { tools: {}, logging: {} } });
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const name = request.params.name;
    await extra.sendNotification({ method: 'notifications/message', params: { level: 'info', data: `mk-${name}` } });
    if (name === 'cut') {
      await sleep(50);
      res.socket?.destroy();
      return new Promise(() => {});
    }
    await sleep(300);
    return { content: [{ type: 'text', text: `${name} done` }] };
  });
  return server;
}

let server: Awaited<ReturnType<typeof statelessServer>>;
let url: string;

beforeAll(async () => {
  server = await statelessServer((res) => chattyServer(res));
  url = server.url;
});

afterAll(() => server.close());

describe('two attempts in flight on one connection', () => {
  it('each keeps its own log messages, and only the one whose stream broke has its answer lost', async () => {
    const connection = await Connection.open({ url });
    const session: PolicySession = { get: async () => ({ connection, generation: 0 }), renew: async () => {} };
    const attemptOf = async (tool: string, opId: string) => {
      const { op, attempts } = opRun(session, { call: { opId, tool, args: {}, sideEffecting: false } });
      // A lost answer missed would end at this timeout instead (LINK.TIMEOUT), so the test cannot pass by waiting.
      await attemptStep(op)({ signal: new AbortController().signal, timeoutMs: 5000 }).catch(() => undefined);
      return attempts[0];
    };
    const [cut, slow] = await Promise.all([attemptOf('cut', 'op-00001'), attemptOf('slow', 'op-00002')]);
    await connection.close();
    expect(cut).toMatchObject({ ok: false, errorCode: 'LINK.ANSWER_LOST' });
    expect(cut.notifications?.join()).toContain('mk-cut');
    expect(cut.notifications?.join()).not.toContain('mk-slow');
    expect(slow).toMatchObject({ ok: true });
    expect(slow.notifications?.join()).toContain('mk-slow');
    expect(slow.notifications?.join()).not.toContain('mk-cut');
  });
});
