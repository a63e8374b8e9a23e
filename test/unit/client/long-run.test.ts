// A long run stays clean (issue 14): thousands of ops through the resilient composition, each request going
// through the transport's fetch chain with the transport's one shared AbortSignal (as the SDK sends them), add
// no abort listener to that signal and raise no MaxListenersExceededWarning.
import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { AttemptRegistry } from '../../../src/client/attempt-registry.ts';
import { transportFetch } from '../../../src/client/connection.ts';
import { resilientPolicy } from '../../../src/client/policies/resilient.ts';
import { RandomStream } from '../../../src/core/random.ts';
import { traitsOf } from '../../../src/server/tools/catalog.ts';
import { FakeSession, ok, SETTINGS } from './fakes.ts';

const OPS = 3000;
const warnings: Error[] = [];
const onWarning = (w: Error) => warnings.push(w);
afterEach(() => {
  process.off('warning', onWarning);
});

describe('a long run', () => {
  it(`adds no abort listener per op to the transport's shared signal (${OPS} ops)`, async () => {
    process.on('warning', onWarning);
    const transport = new AbortController();
    // The real fetch (a data: URL, no socket) builds the Request that would add the listener.
    const send = transportFetch(fetch, new AttemptRegistry());
    const session = new FakeSession(() => ok());
    const get = session.get.bind(session);
    session.get = async () => {
      const got = await get();
      const callTool = async (params: { name: string }) => {
        const response = await send(`data:application/json,${encodeURIComponent(JSON.stringify(ok()))}`, {
          method: 'POST',
          body: JSON.stringify(params),
          signal: transport.signal,
        });
        return response.json();
      };
      return {
        ...got,
        connection: {
          ...got.connection,
          client: { ...got.connection.client, callTool } as typeof got.connection.client,
        },
      };
    };
    const runOp = resilientPolicy.forRun({
      session,
      client: { ...SETTINGS, breaker: { consecutiveFailures: 5, halfOpenAfterMs: 1000 } },
      serverRefreshesCredentials: true,
      traitsOf,
      recordAttempt: () => {},
      recordBreakerEvent: () => {},
    });
    const random = new RandomStream(1, 'client');
    const before = getEventListeners(transport.signal, 'abort').length;
    const outcomes = new Set<string>();
    for (let i = 0; i < OPS; i++) {
      const opId = `op-${i}`;
      const fields = await runOp(
        { index: i, opId, tool: 'create_payment', args: { amount_cents: i } },
        random.child(opId),
      );
      outcomes.add(fields.outcome);
    }
    expect(outcomes).toEqual(new Set(['ok']));
    expect(getEventListeners(transport.signal, 'abort').length).toBe(before);
    expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
  });

  it('still aborts a request in flight when the transport closes', async () => {
    const transport = new AbortController();
    let seen: AbortSignal | undefined;
    const send = transportFetch(async (_input, init) => {
      seen = init?.signal ?? undefined;
      return new Response('{}');
    }, new AttemptRegistry());
    await send('http://127.0.0.1:9/', { method: 'POST', signal: transport.signal });
    expect(seen).toBeDefined();
    expect(seen).not.toBe(transport.signal);
    transport.abort();
    expect(seen!.aborted).toBe(true);
  });
});
