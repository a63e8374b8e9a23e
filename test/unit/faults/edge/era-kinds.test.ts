// The 2026-07-28 era's edge kinds on the wire: drop-after-commit lets the exchange end and then breaks the answer
// off (what came before it gets through); stream-abandon aborts the real exchange after its delay; unsupported-
// version answers -32022 only to requests that carry the refused envelope version.
import { describe, expect, it } from 'vitest';
import { ENVELOPE_VERSION_KEY } from '../../../../src/core/wire.ts';
import { edgeDropAfterCommit } from '../../../../src/faults/edge/drop-after-commit.ts';
import { edgeStreamAbandon } from '../../../../src/faults/edge/stream-abandon.ts';
import { edgeUnsupportedVersion } from '../../../../src/faults/edge/unsupported-version.ts';
import type { FaultKind } from '../../../../src/faults/kind.ts';
import { faultContext, rpc } from './helpers.ts';

const URL_ = 'http://127.0.0.1:1/mcp';

async function through(kind: FaultKind, params: object, inner: typeof fetch) {
  const ctx = faultContext();
  const applied = await kind.apply(kind.params.parse(params), ctx);
  return { fetch: ctx.edge.wrap(inner), hits: applied.hits };
}

const sseAnswer: typeof fetch = async () =>
  new Response('id: p1\ndata: \n\ndata: {"jsonrpc":"2.0","id":1,"result":{"content":[]}}\n\n', {
    status: 200,
    headers: { 'content-type': 'text/event-stream' },
  });

describe('edge drop-after-commit', () => {
  it('keeps the events before the answer, then the body fails; the server ran to its end first', async () => {
    let serverDone = false;
    const inner: typeof fetch = async (input, init) => {
      const r = await sseAnswer(input, init);
      serverDone = true;
      return r;
    };
    const { fetch: f, hits } = await through(edgeDropAfterCommit, {}, inner);
    const response = await f(URL_, rpc('tools/call'));
    expect(serverDone).toBe(true);
    const reader = response.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toBe('id: p1\ndata: \n\n');
    await expect(reader.read()).rejects.toThrow(/dropped after the server answered/);
    expect(await hits()).toBe(1);
  });

  it('a JSON answer is lost whole; an error status or a stream without an answer passes and counts no hit', async () => {
    const json = await through(edgeDropAfterCommit, {}, async () =>
      Response.json({ jsonrpc: '2.0', id: 1, result: {} }),
    );
    await expect((await json.fetch(URL_, rpc('tools/call'))).text()).rejects.toThrow(/dropped/);
    expect(await json.hits()).toBe(1);
    const refused = await through(edgeDropAfterCommit, {}, async () => new Response('no', { status: 503 }));
    expect((await refused.fetch(URL_, rpc('tools/call'))).status).toBe(503);
    const noAnswer = await through(
      edgeDropAfterCommit,
      {},
      async () =>
        new Response('data: {"method":"notifications/progress"}\n\n', {
          status: 200,
          headers: { 'content-type': 'text/event-stream' },
        }),
    );
    expect(await (await noAnswer.fetch(URL_, rpc('tools/call'))).text()).toContain('progress');
    expect(await refused.hits()).toBe(0);
    expect(await noAnswer.hits()).toBe(0);
  });
});

describe('edge stream-abandon', () => {
  it('aborts the exchange with the server after afterMs and counts the hang-up', async () => {
    let serverSignal: AbortSignal | undefined;
    const slow: typeof fetch = async (_input, init) => {
      serverSignal = init?.signal ?? undefined;
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('id: p1\ndata: \n\n'));
          serverSignal?.addEventListener('abort', () => controller.error(serverSignal?.reason));
        },
      });
      return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
    };
    const { fetch: f, hits } = await through(edgeStreamAbandon, { afterMs: 20 }, slow);
    const response = await f(URL_, rpc('tools/call'));
    await expect(response.text()).rejects.toThrow(/hung up/);
    expect(serverSignal?.aborted).toBe(true);
    expect(await hits()).toBe(1);
  });

  it('headers later than afterMs: the hang-up waits for them and falls on the stream, never on the request', async () => {
    let serverSignal: AbortSignal | undefined;
    const lateHeaders: typeof fetch = async (_input, init) => {
      serverSignal = init?.signal ?? undefined;
      // As fetch does: an abort before the headers came rejects the request itself.
      await new Promise((resolve, reject) => {
        setTimeout(resolve, 80);
        serverSignal?.addEventListener('abort', () => reject(serverSignal?.reason));
      });
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          if (serverSignal?.aborted) controller.error(serverSignal.reason);
          serverSignal?.addEventListener('abort', () => controller.error(serverSignal?.reason));
        },
      });
      return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
    };
    const { fetch: f, hits } = await through(edgeStreamAbandon, { afterMs: 10 }, lateHeaders);
    const response = await f(URL_, rpc('tools/call'));
    expect(response.status).toBe(200);
    await expect(response.text()).rejects.toThrow(/hung up/);
    expect(serverSignal?.aborted).toBe(true);
    expect(await hits()).toBe(1);
  });

  it('an exchange that ended before afterMs is no hang-up', async () => {
    const { fetch: f, hits } = await through(edgeStreamAbandon, { afterMs: 50 }, sseAnswer);
    expect(await (await f(URL_, rpc('tools/call'))).text()).toContain('"result"');
    await new Promise((r) => setTimeout(r, 80));
    expect(await hits()).toBe(0);
  });
});

describe('edge unsupported-version', () => {
  it('answers 400 -32022 with supported and requested to a 2026-07-28 envelope, without reaching the server', async () => {
    let reached = 0;
    const inner: typeof fetch = async () => {
      reached++;
      return Response.json({ jsonrpc: '2.0', id: 1, result: {} });
    };
    const { fetch: f, hits } = await through(edgeUnsupportedVersion, {}, inner);
    const refused = await f(URL_, rpc('server/discover', { _meta: { [ENVELOPE_VERSION_KEY]: '2026-07-28' } }));
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({
      id: 1,
      error: { code: -32022, data: { supported: ['2025-11-25'], requested: '2026-07-28' } },
    });
    // A 2025-era request (no envelope) goes through.
    expect((await f(URL_, rpc('initialize', { protocolVersion: '2025-11-25' }))).status).toBe(200);
    expect(reached).toBe(1);
    expect(await hits()).toBe(1);
  });
});
