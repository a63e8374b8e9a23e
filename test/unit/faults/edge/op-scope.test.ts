// An edge rule in an op window touches only the tools/call requests of its ops (trace id and attempt in `_meta`).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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

const call = (op: number, attempt: number) =>
  rpc('tools/call', {
    name: 'x',
    _meta: { [TRACE_META_KEY]: `op-${String(op).padStart(5, '0')}`, [ATTEMPT_META_KEY]: attempt },
  });

describe('edge rules scoped to ops', () => {
  it('answers 503 only to ops 1..2 on their first attempt; the server sees every other call', async () => {
    const ctx = { ...faultContext(), ops: { from: 1, to: 2, firstAttempts: 1 } };
    const applied = await edgeStatus.apply(edgeStatus.params.parse({ status: 503 }), ctx);
    const f = ctx.edge.wrap(fetch);
    const failed: string[] = [];
    for (const op of [0, 1, 2, 3])
      for (const attempt of [1, 2])
        if ((await f(server.url, call(op, attempt))).status === 503) failed.push(`${op}#${attempt}`);
    expect(failed).toEqual(['1#1', '2#1']);
    expect(await applied.hits()).toBe(2);
    expect(server.seen).toHaveLength(6);
  });
});
