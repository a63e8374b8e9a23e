// The mixed-fleet edge kind: each request goes to one of the two single-era replica paths by a seeded draw keyed
// on the request (so the same seed sends the same requests to the same replica whatever their arrival order); a
// hit is a request that lands on the replica of the other era.
import { describe, expect, it } from 'vitest';
import { FLEET_PATHS } from '../../../../src/core/fleet.ts';
import type { DecisionRecord } from '../../../../src/core/history.ts';
import { RandomStream } from '../../../../src/core/random.ts';
import { ATTEMPT_META_KEY, ENVELOPE_VERSION_KEY, TRACE_META_KEY } from '../../../../src/core/wire.ts';
import { edgeMixedFleet } from '../../../../src/faults/edge/mixed-fleet.ts';
import { faultContext, rpc } from './helpers.ts';

const URL_ = 'http://127.0.0.1:1/mcp';

const call = (op: string, modern: boolean) =>
  rpc('tools/call', {
    name: 't',
    _meta: { [TRACE_META_KEY]: op, [ATTEMPT_META_KEY]: 1, ...(modern && { [ENVELOPE_VERSION_KEY]: '2026-07-28' }) },
  });

/** Sends the ops' calls through the fleet in `order`; says where each op's call landed, and the hits. */
async function route(order: readonly string[], params: object = {}, modern = true, seed = 5) {
  const draws: DecisionRecord[] = [];
  const ctx = { ...faultContext(), random: new RandomStream(seed, 'edge/f0', (d) => draws.push(d)) };
  const applied = await edgeMixedFleet.apply(edgeMixedFleet.params.parse(params), ctx);
  const landed = new Map<string, string>();
  const inner: typeof fetch = async (input, init) => {
    const op = JSON.parse(String(init?.body)).params._meta[TRACE_META_KEY];
    landed.set(op, new URL(String(input)).pathname);
    return new Response('{}', { status: 200 });
  };
  const f = ctx.edge.wrap(inner);
  for (const op of order) await f(URL_, call(op, modern));
  return { landed, hits: await applied.hits(), draws };
}

const ops = Array.from({ length: 16 }, (_, i) => `op-${String(i).padStart(5, '0')}`);

describe('edge mixed-fleet', () => {
  it('sends every request to one of the two replicas, both used at an even share', async () => {
    const { landed, hits } = await route(ops);
    const paths = [...landed.values()];
    expect(new Set(paths)).toEqual(new Set([FLEET_PATHS.legacy, FLEET_PATHS.modern]));
    // A 2026-07-28 request is hit when it lands on the 2025-only replica.
    expect(hits).toBe(paths.filter((p) => p === FLEET_PATHS.legacy).length);
  });

  it('the same seed routes the same requests to the same replica whatever their arrival order', async () => {
    const forward = await route(ops);
    const backward = await route([...ops].reverse());
    expect(Object.fromEntries(backward.landed)).toEqual(Object.fromEntries(forward.landed));
    expect(forward.draws.map((d) => d.stream)).toContain('edge/f0/replica/op-00003/attempt-1/request-1');
    const other = await route(ops, {}, true, 6);
    expect(Object.fromEntries(other.landed)).not.toEqual(Object.fromEntries(forward.landed));
  });

  it('modernShare 0 or 1 sends everything to one replica; a 2025 request is hit on the 2026 replica', async () => {
    const legacyOnly = await route(ops, { modernShare: 0 }, false);
    expect(new Set(legacyOnly.landed.values())).toEqual(new Set([FLEET_PATHS.legacy]));
    expect(legacyOnly.hits).toBe(0);
    const modernOnly = await route(ops, { modernShare: 1 }, false);
    expect(new Set(modernOnly.landed.values())).toEqual(new Set([FLEET_PATHS.modern]));
    expect(modernOnly.hits).toBe(ops.length);
  });
});
