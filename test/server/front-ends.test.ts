// The dual front end serves both eras from one process: an SDK 2.4 client in auto negotiation gets 2026-07-28
// (no session), an SDK 1.32 client gets a 2025-11-25 session that the server behaviours still act on (an
// eviction gives it the 404 a legacy client of a dual fleet still meets). The strict SDK 2.4 front end refuses
// 2025-era traffic.
import type { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { DEFAULT_MAX_REQUEST_BODY_SIZE as MODERN_MAX_BODY } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { Connection } from '../../src/client/connection.ts';
import { MODERN_VERSION } from '../../src/core/pairing.ts';
import { MAX_REQUEST_BODY_BYTES } from '../../src/server/oversized-body.ts';
import { call, connect, startServer } from './helpers.ts';

describe('protocol front ends', () => {
  it('dual: SDK 2.4 auto negotiates 2026-07-28, SDK 1.32 gets an evictable 2025-11-25 session', async () => {
    const server = await startServer({ frontEnd: 'dual' });
    const modern = await Connection.open({ url: server.url, sdk2: { negotiation: 'auto' } });
    try {
      expect(modern.protocolVersion).toBe(MODERN_VERSION);
      expect(modern.transport.sessionId).toBeUndefined();
      const { client, transport } = await connect(server.url);
      expect(transport.protocolVersion).toBe('2025-11-25');
      expect(transport.sessionId).toBeTruthy();
      await server.call('setBehaviour', [{ id: 'w', kind: 'evict-sessions' }]);
      const error = await call(client, 'search_documents', { query: 'invoice' }).catch((e: unknown) => e);
      expect((error as StreamableHTTPError).code).toBe(404);
      expect((await server.behaviourStats()).sessionsEvicted).toBe(1);
      // The modern client has no session to lose.
      const result = await modern.client.callTool({ name: 'search_documents', arguments: { query: 'invoice' } });
      expect(result.isError).toBeFalsy();
    } finally {
      await modern.close();
    }
  });

  // Both SDKs refuse a declared body over 4 MiB before reading it, while the client is still sending, so fetch often
  // sees a reset instead of the 413: an uncertain link error the client retries. The reference server reads the
  // body, then refuses it, in every era.
  const oversized = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'send_notification', arguments: { message: 'x'.repeat(5_000_000) } },
  });
  const accept = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

  async function expectRefusedEveryTime(url: string, headers: Record<string, string>): Promise<void> {
    for (let i = 0; i < 8; i++) {
      const response = await fetch(url, { method: 'POST', headers, body: oversized });
      expect(response.status).toBe(413);
      expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(/^Payload Too Large/);
    }
    // Control: a body under the limit reaches the SDK's handler (which answers it, here without a 413).
    const small = await fetch(url, { method: 'POST', headers, body: oversized.slice(0, 100) });
    expect(small.status).not.toBe(413);
  }

  it('both SDKs bound a request body at the same size, the one the reference server refuses above', () => {
    expect(MODERN_MAX_BODY).toBe(MAX_REQUEST_BODY_BYTES);
    expect(oversized.length).toBeGreaterThan(MAX_REQUEST_BODY_BYTES);
  });

  it('sdk2: a 5 MB body is refused with 413 and its JSON-RPC error every time, never a reset', async () => {
    const server = await startServer({ frontEnd: 'sdk2' });
    await expectRefusedEveryTime(server.url, { ...accept, 'mcp-protocol-version': MODERN_VERSION });
  });

  it.each(['sdk1', 'dual'] as const)(
    '%s: a 5 MB body in a 2025-11-25 session is refused with 413 every time',
    async (frontEnd) => {
      const server = await startServer({ frontEnd });
      const { transport } = await connect(server.url);
      const session = { 'mcp-session-id': String(transport.sessionId), 'mcp-protocol-version': '2025-11-25' };
      await expectRefusedEveryTime(server.url, { ...accept, ...session });
    },
  );

  it('sdk2: an SDK 1.32 client cannot open a 2025-11-25 session there', async () => {
    const server = await startServer({ frontEnd: 'sdk2' });
    const error = await connect(server.url).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
  });
});
