// The edge `sse-cut` kind: the SSE body is cut after N events, and only a cut is a hit (a stream that ends before
// N events, or a JSON answer, passes whole and counts nothing).
import { describe, expect, it } from 'vitest';
import { edgeSseCut } from '../../../../src/faults/edge/sse-cut.ts';
import { faultContext, rpc } from './helpers.ts';

function sse(events: number): typeof fetch {
  const body = Array.from({ length: events }, (_, i) => `id: ${i}\ndata: {"n":${i}}\n\n`).join('');
  return async () => new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
}

async function cutting(afterEvents: number, inner: typeof fetch) {
  const ctx = faultContext();
  const applied = await edgeSseCut.apply(edgeSseCut.params.parse({ afterEvents }), ctx);
  return { fetch: ctx.edge.wrap(inner), hits: applied.hits };
}

describe('edge sse-cut', () => {
  it('cuts the stream after N events and counts the cut', async () => {
    const { fetch: f, hits } = await cutting(1, sse(3));
    const response = await f('http://127.0.0.1:1/mcp', rpc('tools/call'));
    await expect(response.text()).rejects.toThrow(/SSE stream cut/);
    expect(await hits()).toBe(1);
  });

  it('a stream shorter than N events, or a JSON answer, is not cut and counts no hit', async () => {
    const short = await cutting(5, sse(2));
    expect(await (await short.fetch('http://127.0.0.1:1/mcp', rpc('tools/call'))).text()).toContain('"n":1');
    const json = await cutting(1, async () => Response.json({ ok: true }));
    expect(await (await json.fetch('http://127.0.0.1:1/mcp', rpc('tools/call'))).json()).toEqual({ ok: true });
    expect(await short.hits()).toBe(0);
    expect(await json.hits()).toBe(0);
  });
});
