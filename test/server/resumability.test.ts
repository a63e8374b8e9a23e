// Resumability: the client's POST response stream is cut after the first progress event (after the priming
// event); with our event store the client resumes with GET + Last-Event-ID and gets the result exactly once;
// without it, the result is lost and the call times out although the tool ran.
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { connect, key, startServer } from './helpers.ts';

/** A fetch that errors the first tools/call SSE response body after its first progress notification. */
function cuttingFetch() {
  let armed = true;
  const stats = { cuts: 0, resumes: 0 };
  const fetchImpl = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const response = await fetch(input, init);
    const headers = new Headers(init?.headers);
    if (init?.method === 'GET' && headers.get('last-event-id')) stats.resumes++;
    const isToolCall = typeof init?.body === 'string' && init.body.includes('"tools/call"');
    if (!armed || !isToolCall || !response.body || !response.headers.get('content-type')?.includes('event-stream')) {
      return response;
    }
    armed = false;
    const reader = response.body.getReader();
    let seen = '';
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { value, done } = await reader.read();
        if (done) return controller.close();
        controller.enqueue(value);
        seen += new TextDecoder().decode(value);
        if (seen.includes('notifications/progress')) {
          stats.cuts++;
          // Close the real connection too, so the server drops its side of the stream.
          await reader.cancel().catch(() => undefined);
          controller.error(new TypeError('chaos: stream cut after first progress event'));
        }
      },
    });
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
  return { fetchImpl, stats };
}

describe('resumability', () => {
  it('replays the result after a dropped POST stream, once, from our event store', async () => {
    const server = await startServer({ retryIntervalMs: 200 });
    const { fetchImpl, stats } = cuttingFetch();
    const { client, transport } = await connect(server.url, { fetch: fetchImpl });
    let results = 0;
    const onmessage = transport.onmessage!;
    transport.onmessage = (message: JSONRPCMessage) => {
      if ('result' in message && (message.result as any)?.structuredContent?.report_id) results++;
      onmessage(message);
    };
    const result = await client.callTool(
      { name: 'generate_report', arguments: { report_type: 'sales', idempotency_key: key('rep'), duration_ms: 800 } },
      undefined,
      { timeout: 8000, onprogress: () => undefined },
    );
    expect(stats.cuts).toBe(1);
    expect(stats.resumes).toBeGreaterThanOrEqual(1);
    expect(result.structuredContent).toMatchObject({ status: 'ready' });
    await new Promise((r) => setTimeout(r, 300)); // a duplicate replay would arrive by now
    expect(results).toBe(1);
    expect(await server.ledger()).toHaveLength(1);
  });

  it('without the event store the same cut loses the result, although the tool ran', async () => {
    const server = await startServer({ eventStore: false });
    const { fetchImpl, stats } = cuttingFetch();
    const { client } = await connect(server.url, { fetch: fetchImpl });
    const outcome = await client
      .callTool(
        { name: 'generate_report', arguments: { report_type: 'sales', idempotency_key: key('rep'), duration_ms: 300 } },
        undefined,
        { timeout: 2500, onprogress: () => undefined },
      )
      .catch((e: unknown) => e);
    expect(stats.cuts).toBe(1);
    expect(stats.resumes).toBe(0);
    expect(outcome).toMatchObject({ code: -32001 }); // request timed out
    expect(await server.ledger()).toHaveLength(1); // executed, result lost
  });
});
