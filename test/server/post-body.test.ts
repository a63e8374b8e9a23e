// The SDK 1.32 front end gets each POST's body read and parsed by the reference server (server/read-post-body.ts):
// what the transport answered when it read the body itself stays the same for a body that is not JSON (its parse
// error) and for a chunked body over the limit (413, as a declared one).
import { describe, expect, it } from 'vitest';
import { MAX_REQUEST_BODY_BYTES } from '../../src/server/oversized-body.ts';
import { connect, startServer } from './helpers.ts';

const accept = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

async function session(url: string): Promise<Record<string, string>> {
  const { transport } = await connect(url);
  return { ...accept, 'mcp-session-id': String(transport.sessionId), 'mcp-protocol-version': '2025-11-25' };
}

/** A body sent chunked (no Content-Length), `pieces` chunks of `size` bytes. */
function chunked(pieces: number, size: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent++ === pieces) return controller.close();
      controller.enqueue(new Uint8Array(size).fill(0x20));
    },
  });
}

describe('sdk1 POST bodies', () => {
  it('a body that is not JSON gets the transport parse error (control: the same call as JSON is answered)', async () => {
    const server = await startServer({ frontEnd: 'sdk1' });
    const headers = await session(server.url);
    const bad = await fetch(server.url, { method: 'POST', headers, body: '{"jsonrpc":"2.0",' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: number } }).error.code).toBe(-32700);
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
    const good = await fetch(server.url, { method: 'POST', headers, body });
    expect(good.status).toBe(200);
    expect(await good.text()).toContain('"id":1');
  });

  it('a chunked body over the limit is refused with 413 (control: a chunked body under it is not)', async () => {
    const server = await startServer({ frontEnd: 'sdk1' });
    const headers = await session(server.url);
    const send = (pieces: number) =>
      fetch(server.url, { method: 'POST', headers, body: chunked(pieces, 65_536), duplex: 'half' } as RequestInit);
    const over = await send(Math.ceil(MAX_REQUEST_BODY_BYTES / 65_536) + 1);
    expect(over.status).toBe(413);
    const under = await send(2);
    expect(under.status).not.toBe(413);
  });
});
