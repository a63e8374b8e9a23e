// The edge `strip-trace` kind: the server gets the tools/call without Faultline's trace id and attempt (as a
// server that does not forward them), everything else in the body unchanged.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ATTEMPT_META_KEY, TRACE_META_KEY } from '../../../../src/core/wire.ts';
import { edgeStripTrace } from '../../../../src/faults/edge/strip-trace.ts';
import { type Endpoint, endpoint, faultContext, rpc } from './helpers.ts';

let server: Endpoint;
beforeEach(async () => {
  server = await endpoint();
});
afterEach(async () => {
  await server.close();
});

describe('edge strip-trace', () => {
  it('removes the trace id and attempt from _meta, keeps the rest, and touches nothing once removed', async () => {
    const ctx = faultContext();
    const applied = await edgeStripTrace.apply(edgeStripTrace.params.parse({}), ctx);
    const f = ctx.edge.wrap(fetch);
    const params = {
      name: 'create_payment',
      arguments: { amount_cents: 5 },
      _meta: { [TRACE_META_KEY]: 'op-00001', [ATTEMPT_META_KEY]: 2, progressToken: 7 },
    };
    await f(server.url, rpc('tools/call', params));
    expect(JSON.parse(server.seen[0].body).params).toEqual({ ...params, _meta: { progressToken: 7 } });
    expect(await applied.hits()).toBe(1);
    await applied.remove();
    await f(server.url, rpc('tools/call', params));
    expect(JSON.parse(server.seen[1].body).params).toEqual(params);
  });

  it('passes a request without a trace id as it is', async () => {
    const ctx = faultContext();
    await edgeStripTrace.apply(edgeStripTrace.params.parse({}), ctx);
    const request = rpc('tools/call', { name: 'x' });
    await ctx.edge.wrap(fetch)(server.url, request);
    expect(server.seen[0].body).toBe(request.body);
  });
});
