// Same seed, same edge faults: a rule's draw for a traced request is keyed by the op's trace id, its attempt and
// the request's ordinal within the attempt, so which requests a probabilistic rule hits does not depend on the
// order in which concurrent requests arrive. Requests without a trace id draw in arrival order.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DecisionRecord } from '../../../../src/core/history.ts';
import { RandomStream } from '../../../../src/core/random.ts';
import { ATTEMPT_META_KEY, TRACE_META_KEY } from '../../../../src/core/wire.ts';
import { edgeStatus } from '../../../../src/faults/edge/status.ts';
import { type Endpoint, endpoint, faultContext, rpc } from './helpers.ts';

let server: Endpoint;
beforeEach(async () => {
  server = await endpoint();
});
afterEach(async () => {
  await server.close();
});

const traced = (op: string, attempt: number) =>
  rpc('tools/call', { name: 't', _meta: { [TRACE_META_KEY]: op, [ATTEMPT_META_KEY]: attempt } });

/** Sends the requests in `order` through a 50% status rule; says which (op, attempt) got the 500. */
async function hits(order: readonly [string, number][]): Promise<{ hit: string[]; draws: DecisionRecord[] }> {
  const draws: DecisionRecord[] = [];
  const ctx = { ...faultContext(), random: new RandomStream(7, 'edge/f0', (d) => draws.push(d)) };
  await edgeStatus.apply(edgeStatus.params.parse({ status: 500, probability: 0.5 }), ctx);
  const f = ctx.edge.wrap(fetch);
  const hit: string[] = [];
  for (const [op, attempt] of order) {
    if ((await f(server.url, traced(op, attempt))).status === 500) hit.push(`${op}#${attempt}`);
  }
  return { hit: hit.sort(), draws };
}

describe('edge rules draw per logical key', () => {
  const requests: [string, number][] = Array.from({ length: 12 }, (_, i) => [`op-${String(i).padStart(5, '0')}`, 1]);

  it('hits the same requests whatever their arrival order', async () => {
    const forward = await hits(requests);
    const backward = await hits([...requests].reverse());
    expect(forward.hit.length).toBeGreaterThan(0);
    expect(forward.hit.length).toBeLessThan(requests.length);
    expect(backward.hit).toEqual(forward.hit);
    expect(forward.draws.map((d) => d.stream)).toContain('edge/f0/op-00003/attempt-1/request-1');
  });

  it('a retry (another attempt) and a second request of one attempt draw under their own keys', async () => {
    const { draws } = await hits([
      ['op-00001', 1],
      ['op-00001', 1],
      ['op-00001', 2],
    ]);
    expect(draws.map((d) => d.stream)).toEqual([
      'edge/f0/op-00001/attempt-1/request-1',
      'edge/f0/op-00001/attempt-1/request-2',
      'edge/f0/op-00001/attempt-2/request-1',
    ]);
  });

  it('requests without a trace id draw from the rule stream itself, in arrival order', async () => {
    const draws: DecisionRecord[] = [];
    const ctx = { ...faultContext(), random: new RandomStream(7, 'edge/f0', (d) => draws.push(d)) };
    await edgeStatus.apply(edgeStatus.params.parse({ status: 500, probability: 0.5 }), ctx);
    await ctx.edge.wrap(fetch)(server.url, rpc('tools/call'));
    expect(draws.map((d) => d.stream)).toEqual(['edge/f0']);
  });
});
