// The edge `protocol-version` kind and the client's reading of version failures: the initialize offer is
// rewritten on the wire, sessions from before the fault expire (404), an answer outside `accept` is rejected,
// and every version failure classifies as PROTO, not retryable.
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { classifyError } from '../../../../src/client/classify.ts';
import { ProtocolVersionRejected } from '../../../../src/core/protocol-mismatch.ts';
import { answeredVersion, edgeProtocolVersion, withOffer } from '../../../../src/faults/edge/protocol-version.ts';
import { negotiationNotes } from '../../../../src/run/negotiation-notes.ts';
import { type Endpoint, endpoint, faultContext, rpc } from './helpers.ts';

let server: Endpoint | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function withFault(params: Record<string, unknown>) {
  const ctx = faultContext();
  const applied = await edgeProtocolVersion.apply(edgeProtocolVersion.params.parse(params), ctx);
  return Object.assign(ctx.edge.wrap(fetch), { hits: applied.hits });
}

describe('edge protocol-version', () => {
  it('rewrites only the offered version of initialize', () => {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: 'a', x: 1 },
    });
    expect(JSON.parse(withOffer(body, '2024-11-05'))).toEqual({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2024-11-05', x: 1 },
    });
    expect(answeredVersion('event: message\ndata: {"result":{"protocolVersion":"2025-11-25"}}\n\n')).toBe('2025-11-25');
  });

  it('the server sees the new offer; older sessions get 404, new ones pass', async () => {
    server = await endpoint();
    const f = await withFault({ offer: '2026-07-28' });
    expect((await f(server.url, rpc('tools/call', {}, { 'mcp-session-id': 'old' }))).status).toBe(404);
    const init = await f(server.url, rpc('initialize', { protocolVersion: '2025-11-25' }));
    const sid = init.headers.get('mcp-session-id')!;
    expect(JSON.parse(server.seen[0].body).params.protocolVersion).toBe('2026-07-28');
    expect((await f(server.url, rpc('tools/call', {}, { 'mcp-session-id': sid }))).status).toBe(200);
    expect(server.seen).toHaveLength(2); // the expired session's call never reached the server
    expect(await f.hits()).toBe(2); // one expired session answered, one offer rewritten; the fresh call untouched
  });

  it('counts no hit when no initialize and no expired session comes by (the negative control)', async () => {
    server = await endpoint();
    const f = await withFault({ offer: '2026-07-28' });
    expect((await f(server.url, rpc('tools/call'))).status).toBe(200); // no session id: nothing to expire
    expect(await f.hits()).toBe(0);
  });

  it('with accept, an answer outside it is rejected by the client', async () => {
    server = await endpoint('2025-11-25');
    const f = await withFault({ offer: '2026-07-28', accept: ['2026-07-28'] });
    const error = await f(server.url, rpc('initialize', { protocolVersion: '2025-11-25' })).catch((e) => e);
    expect(error).toBeInstanceOf(ProtocolVersionRejected);
    expect(classifyError(error)).toMatchObject({
      category: 'PROTO',
      errorCode: 'PROTO.VERSION_UNSUPPORTED',
      retryable: false,
    });
  });

  it('an accepted answer passes through unchanged', async () => {
    server = await endpoint('2025-11-25');
    const f = await withFault({ offer: '2026-07-28', accept: ['2025-11-25'] });
    const response = await f(server.url, rpc('initialize', { protocolVersion: '2025-11-25' }));
    expect((await response.json()).result.protocolVersion).toBe('2025-11-25');
  });
});

describe('classifying version failures', () => {
  it("the SDK's own version error (a plain Error) is PROTO.VERSION_UNSUPPORTED", () => {
    const c = classifyError(new Error("Server's protocol version is not supported: 1999-01-01"));
    expect(c).toMatchObject({ category: 'PROTO', errorCode: 'PROTO.VERSION_UNSUPPORTED', retryable: false });
  });

  it('a 400 for the MCP-Protocol-Version header is PROTO, not retried, and asks for a new session', () => {
    const e = new StreamableHTTPError(400, 'Error POSTing to endpoint: Bad Request: Unsupported protocol version: x');
    expect(classifyError(e)).toMatchObject({
      category: 'PROTO',
      errorCode: 'PROTO.BAD_PROTOCOL_VERSION',
      retryable: false,
      renegotiate: true,
    });
    expect(classifyError(new StreamableHTTPError(400, 'other')).renegotiate).toBeFalsy();
  });
});

describe('negotiation notes', () => {
  it('name the negotiated versions, the lower common version and the downgrade', () => {
    const notes = negotiationNotes([
      { generation: 0, atMs: 0, offered: '2025-11-25', negotiated: '2025-11-25' },
      { generation: 1, atMs: 1, offered: '2026-07-28', negotiated: '2025-11-25' },
      { generation: 2, atMs: 2, offered: '2024-11-05', negotiated: '2024-11-05' },
      { generation: 3, atMs: 3, offered: '2026-07-28', error: 'protocol version mismatch' },
    ]).join('\n');
    expect(notes).toContain('negotiated protocol versions: 2025-11-25 (2 sessions), 2024-11-05 (1 session)');
    expect(notes).toContain('offered 2026-07-28, negotiated 2025-11-25');
    expect(notes).toContain('resumability is silently off');
    expect(notes).toContain('1 session open(s) failed (offered 2026-07-28)');
  });

  it('say nothing when every session got what it offered', () => {
    expect(negotiationNotes([{ generation: 0, atMs: 0, offered: '2025-11-25', negotiated: '2025-11-25' }])).toEqual([]);
  });
});
