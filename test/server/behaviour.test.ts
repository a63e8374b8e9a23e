// Server-behaviour faults set at run time through the control channel (IPC and the admin HTTP route): session
// eviction, tools/call stream close (with and without the event store), standalone GET stream drop until the
// SDK client gives up, and the initialize protocol-version override. The set is a list of specs, one per window;
// a spec opens (one-shot actions such as evicting every session) only when its id is new to the server.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { AdminClient, type AdminHttpServer, startAdminHttp } from '../../src/control/admin-http.ts';
import type { BehaviourSpec } from '../../src/server/behaviour.ts';
import type { ServerHandle } from '../../src/targets/child-target.ts';
import { call, connect, FAST_RECONNECT, key, payment, startServer } from './helpers.ts';

/** Replaces the server's behaviour set directly over IPC (not the run's desired state). */
async function setBehaviour(server: ServerHandle, ...specs: BehaviourSpec[]): Promise<void> {
  await server.call('setBehaviour', specs);
}

let admin: AdminHttpServer | undefined;
afterEach(async () => {
  await admin?.close();
  admin = undefined;
});

/** A fetch that counts GETs carrying Last-Event-ID (SSE resumptions) and GET refusals. */
function countingFetch() {
  const stats = { resumes: 0, getStatuses: [] as number[] };
  const fetchImpl = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const response = await fetch(input, init);
    if (init?.method === 'GET') {
      stats.getStatuses.push(response.status);
      if (new Headers(init.headers).get('last-event-id')) stats.resumes++;
    }
    return response;
  };
  return { fetchImpl, stats };
}

async function waitFor(predicate: () => boolean, timeoutMs = 5000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && !predicate()) await new Promise((r) => setTimeout(r, 25));
  return predicate();
}

describe('server behaviour: session eviction', () => {
  it('evict-sessions (now) forgets every session: the next request with its id gets 404 Session not found', async () => {
    const server = await startServer();
    const { client } = await connect(server.url);
    await call(client, 'search_documents', { query: 'invoice' });
    await setBehaviour(server, { id: 'w', kind: 'evict-sessions' });
    const error = await call(client, 'search_documents', { query: 'invoice' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StreamableHTTPError);
    expect((error as StreamableHTTPError).code).toBe(404);
    expect((error as Error).message).toMatch(/Session not found/);
    expect((await server.behaviourStats()).sessionsEvicted).toBe(1);
    // A new session works: eviction is not a permanent outage.
    const { client: fresh } = await connect(server.url);
    expect((await call(fresh, 'search_documents', { query: 'invoice' })).isError).toBeFalsy();
  });

  it('evict-sessions afterRequests N: a session serves N POSTs after initialize, then 404s', async () => {
    const server = await startServer();
    await setBehaviour(server, { id: 'w', kind: 'evict-sessions', now: false, afterRequests: 3 });
    const { client } = await connect(server.url); // POST 1: notifications/initialized
    await call(client, 'search_documents', { query: 'a' }); // 2
    await call(client, 'search_documents', { query: 'b' }); // 3
    const error = await call(client, 'search_documents', { query: 'c' }).catch((e: unknown) => e);
    expect((error as StreamableHTTPError).code).toBe(404);
    await setBehaviour(server);
    const { client: fresh } = await connect(server.url);
    for (const q of ['a', 'b', 'c', 'd'])
      expect((await call(fresh, 'search_documents', { query: q })).isError).toBeFalsy();
  });
});

describe('server behaviour: tools/call stream close', () => {
  it('with the event store the client resumes with Last-Event-ID and gets the result once', async () => {
    const server = await startServer({ retryIntervalMs: 100 });
    const { fetchImpl, stats } = countingFetch();
    const { client } = await connect(server.url, { fetch: fetchImpl });
    await setBehaviour(server, { id: 'w', kind: 'stream-close' });
    const k = key('pay');
    const started = Date.now();
    const result = await call(client, 'create_payment', payment(k), { traceId: 'op-resume', timeout: 5000 });
    expect(result.structuredContent).toMatchObject({ status: 'succeeded', replayed: false });
    expect(Date.now() - started).toBeLessThan(4000);
    expect(stats.resumes).toBe(1);
    expect((await server.behaviourStats()).toolStreamsClosed).toBe(1);
    expect(await server.ledger()).toHaveLength(1);
  });

  it('every: 2 closes only every second tools/call', async () => {
    const server = await startServer({ retryIntervalMs: 100 });
    const { fetchImpl, stats } = countingFetch();
    const { client } = await connect(server.url, { fetch: fetchImpl });
    await setBehaviour(server, { id: 'w', kind: 'stream-close', every: 2 });
    for (const q of ['a', 'b', 'c', 'd']) await call(client, 'search_documents', { query: q }, { timeout: 5000 });
    expect(stats.resumes).toBe(2);
    expect((await server.behaviourStats()).toolStreamsClosed).toBe(2);
  });

  it('without the event store the result is lost: the call hangs until its timeout although the tool ran', async () => {
    const server = await startServer({ eventStore: false });
    const { fetchImpl, stats } = countingFetch();
    const { client } = await connect(server.url, { fetch: fetchImpl });
    await setBehaviour(server, { id: 'w', kind: 'stream-close' });
    const started = Date.now();
    const outcome = await call(client, 'create_payment', payment(key('pay')), {
      traceId: 'op-lost',
      timeout: 1500,
    }).catch((e: unknown) => e);
    expect(outcome).toMatchObject({ code: -32001 }); // request timed out
    expect(Date.now() - started).toBeGreaterThanOrEqual(1400);
    expect(stats.resumes).toBe(0);
    expect(await server.ledger()).toHaveLength(1); // executed, result lost
  });
});

describe('server behaviour: standalone GET stream drop', () => {
  it('the SDK client reconnects, is refused, and gives up: "Maximum reconnection attempts" on onerror', async () => {
    const server = await startServer();
    const { fetchImpl, stats } = countingFetch();
    const errors: string[] = [];
    const transport = new StreamableHTTPClientTransport(new URL(server.url), {
      fetch: fetchImpl,
      reconnectionOptions: { ...FAST_RECONNECT, maxRetries: 3 },
    });
    const client = new Client({ name: 'faultline-test', version: '0.0.0' });
    client.onerror = (e) => errors.push(e.message);
    try {
      await client.connect(transport);
      expect(await waitFor(() => stats.getStatuses.includes(200))).toBe(true); // the standalone stream is open
      await setBehaviour(server, { id: 'w', kind: 'get-stream-drop' });
      expect(await waitFor(() => errors.some((e) => /Maximum reconnection attempts \(3\)/.test(e)))).toBe(true);
      expect(stats.getStatuses.filter((s) => s === 503)).toHaveLength(3);
      const s = await server.behaviourStats();
      expect(s.standaloneStreamsClosed).toBe(1);
      expect(s.getsRefused).toBe(3);
      expect((await server.faultHits()).w).toBe(4); // the window's hits: the stream it closed, the GETs it refused
      // POSTs keep working: the loss is silent.
      expect((await call(client, 'search_documents', { query: 'x' })).isError).toBeFalsy();
    } finally {
      await client.close();
    }
  });
});

describe('server behaviour: protocol-version override', () => {
  it('an unsupported version (2026-07-28) makes the SDK client fail at connect with a plain Error', async () => {
    const server = await startServer();
    await setBehaviour(server, { id: 'w', kind: 'protocol-version', version: '2026-07-28' });
    const client = new Client({ name: 'faultline-test', version: '0.0.0' });
    const error = await client
      .connect(new StreamableHTTPClientTransport(new URL(server.url)))
      .then(() => undefined)
      .catch((e: unknown) => e);
    await client.close();
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(StreamableHTTPError);
    expect((error as Error).message).toMatch(/protocol version is not supported: 2026-07-28/);
    expect((await server.behaviourStats()).initializeOverridden).toBe(1);
  });

  it('a downgrade (2024-11-05) works but silently turns resumability off: no priming, the stream close loses the result', async () => {
    const server = await startServer();
    const downgrade = { id: 'v', kind: 'protocol-version', version: '2024-11-05' };
    await setBehaviour(server, downgrade);
    const { fetchImpl, stats } = countingFetch();
    const { client, transport } = await connect(server.url, { fetch: fetchImpl });
    expect(transport.protocolVersion).toBe('2024-11-05');
    expect((await call(client, 'search_documents', { query: 'x' })).isError).toBeFalsy();
    // The downgrade window is not new: the session is not evicted again; the stream close opens.
    await setBehaviour(server, downgrade, { id: 'c', kind: 'stream-close' });
    const outcome = await call(client, 'search_documents', { query: 'y' }, { timeout: 1200 }).catch((e: unknown) => e);
    expect(outcome).toMatchObject({ code: -32001 });
    expect(stats.resumes).toBe(0);
  });
});

describe('server behaviour: control plumbing', () => {
  it('rejects an invalid behaviour with a readable error, over IPC and over the admin route', async () => {
    const server = await startServer();
    await expect(setBehaviour(server, { id: 'w', kind: 'evict-sessions', afterRequests: 0 })).rejects.toThrow(
      /invalid setBehaviour input[\s\S]*afterRequests/,
    );
    await expect(setBehaviour(server, { id: 'w', kind: 'nope' })).rejects.toThrow(/unknown server behaviour/);
    admin = await startAdminHttp(server, { token: 'tok-behaviour' });
    const control = new AdminClient(admin.url, 'tok-behaviour');
    await expect(control.call('setBehaviour', [{ id: 'w', kind: 'protocol-version', version: '' }])).rejects.toThrow(
      /HTTP 400/,
    );
    const { client } = await connect(server.url);
    await control.call('setBehaviour', [{ id: 'e', kind: 'evict-sessions' }]);
    expect(await call(client, 'search_documents', { query: 'x' }).catch((e: unknown) => e)).toMatchObject({
      code: 404,
    });
    expect(await control.call('behaviourStats')).toMatchObject({ sessionsEvicted: 1 });
  });

  it('the desired behaviour survives restart(); reset() clears it', async () => {
    const server = await startServer();
    await server.desired.behaviour.put({ id: 'w', kind: 'protocol-version', version: '2024-11-05' });
    await server.restart();
    const { transport } = await connect(server.url);
    expect(transport.protocolVersion).toBe('2024-11-05');
    await server.reset();
    const { transport: fresh } = await connect(server.url);
    expect(fresh.protocolVersion).toBe('2025-11-25');
  });
});
