// transfer_funds on the 2026-07-28 wire: a first round answers input_required (an elicitation and a signed request
// state), the retried round with the accepted confirmation and that state charges once. The SDK 2.4 client runs
// the rounds inside one callTool; a hand-made round with a tampered state is refused and charges nothing.
import { describe, expect, it } from 'vitest';
import { Connection } from '../../src/client/connection.ts';
import { MODERN_VERSION } from '../../src/core/pairing.ts';
import { key, payment, startServer } from './helpers.ts';

const headers = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': MODERN_VERSION,
  'mcp-method': 'tools/call',
  'mcp-name': 'transfer_funds',
};
const envelope = {
  'io.modelcontextprotocol/protocolVersion': MODERN_VERSION,
  'io.modelcontextprotocol/clientInfo': { name: 't', version: '0' },
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
};

/** One tools/call round of transfer_funds by hand: its JSON-RPC result. */
async function round(url: string, args: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const body = {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'transfer_funds', arguments: args, _meta: envelope, ...extra },
  };
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  const text = await response.text();
  const data = text.startsWith('{') ? text : (text.split('\n').find((l) => l.startsWith('data: ')) ?? '').slice(6);
  return JSON.parse(data) as { result?: Record<string, unknown>; error?: unknown };
}

describe('transfer_funds (input_required)', () => {
  it('the SDK 2.4 client confirms inside one call; one charge in the ledger', async () => {
    const server = await startServer({ frontEnd: 'sdk2' });
    const connection = await Connection.open({ url: server.url, sdk2: { negotiation: { pin: MODERN_VERSION } } });
    try {
      const result = await connection.client.callTool({ name: 'transfer_funds', arguments: payment(key('tf')) });
      expect(result.isError).toBeFalsy();
      expect((result.structuredContent as { status?: string }).status).toBe('succeeded');
      expect(await server.ledger()).toHaveLength(1);
    } finally {
      await connection.close();
    }
  });

  it('a round with a tampered request state is refused and charges nothing; the real state charges', async () => {
    const server = await startServer({ frontEnd: 'sdk2' });
    const args = payment(key('tf'));
    const first = await round(server.url, args);
    expect(first.result?.resultType).toBe('input_required');
    const state = first.result?.requestState as string;
    expect(state).toBeTruthy();
    const inputResponses = { confirm: { action: 'accept', content: { confirm: true } } };
    const tampered = await round(server.url, args, { inputResponses, requestState: `${state.slice(0, -2)}xx` });
    expect((tampered.result?.structuredContent as { errorCode?: string } | undefined)?.errorCode).toBe(
      'VALIDATION.REQUEST_STATE',
    );
    expect(await server.ledger()).toHaveLength(0);
    const confirmed = await round(server.url, args, { inputResponses, requestState: state });
    expect(confirmed.result?.isError).toBeFalsy();
    expect(await server.ledger()).toHaveLength(1);
  });
  it("a round that comes back after the state's TTL is refused as expired and charges nothing; a fresh state charges", async () => {
    const server = await startServer({ frontEnd: 'sdk2', requestStateTtlMs: 1000 });
    const args = payment(key('tf'));
    const inputResponses = { confirm: { action: 'accept', content: { confirm: true } } };
    const stale = (await round(server.url, args)).result?.requestState as string;
    await new Promise((resolve) => setTimeout(resolve, 1200));
    const late = await round(server.url, args, { inputResponses, requestState: stale });
    expect((late.result?.structuredContent as { errorCode?: string } | undefined)?.errorCode).toBe(
      'VALIDATION.REQUEST_STATE_EXPIRED',
    );
    expect(await server.ledger()).toHaveLength(0);
    const fresh = (await round(server.url, args)).result?.requestState as string;
    const confirmed = await round(server.url, args, { inputResponses, requestState: fresh });
    expect(confirmed.result?.isError).toBeFalsy();
    expect(await server.ledger()).toHaveLength(1);
  });
});
