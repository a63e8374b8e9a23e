// The edge `status` kind: an HTTP error before the server sees the request or after it ran it, with Retry-After
// in both forms, which the client's recording fetch turns into the attempt's advised delay.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AttemptRegistry } from '../../../../src/client/attempt-registry.ts';
import { recordingFetch } from '../../../../src/client/recording-fetch.ts';
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

/** A tools/call of attempt 1 of op-1, sent through the recording fetch while that attempt is in flight. */
async function attemptCall(f: typeof fetch, http: object) {
  const attempts = new AttemptRegistry();
  const init = rpc('tools/call', { _meta: { [TRACE_META_KEY]: 'op-1', [ATTEMPT_META_KEY]: 1 } });
  const response = await attempts.during('op-1', 1, http, () => recordingFetch(f, attempts)(server.url, init));
  return { response, after: attempts.of('POST', init.body, undefined) };
}

async function withFault(params: Record<string, unknown>) {
  const ctx = faultContext();
  const applied = await edgeStatus.apply(edgeStatus.params.parse(params), ctx);
  return { fetch: ctx.edge.wrap(fetch), remove: applied.remove, hits: applied.hits };
}

describe('edge status', () => {
  it('before: answers instead of the server, which never sees the request', async () => {
    const { fetch: f } = await withFault({ status: 503 });
    const response = await f(server.url, rpc('tools/call'));
    expect(response.status).toBe(503);
    expect((await response.json()).error.code).toBe(-32000);
    expect(server.seen).toHaveLength(0);
  });

  it('after: the server ran the request to the end, the client still sees the failure', async () => {
    const { fetch: f } = await withFault({ status: 502, when: 'after' });
    const response = await f(server.url, rpc('tools/call'));
    expect(response.status).toBe(502);
    expect(server.seen).toHaveLength(1);
  });

  it('touches only the methods it names, and nothing once removed; its hits count what it answered', async () => {
    const { fetch: f, remove, hits } = await withFault({ status: 500 });
    expect((await f(server.url, rpc('initialize', { protocolVersion: '2025-11-25' }))).status).toBe(200);
    expect((await f(server.url, rpc('tools/call'))).status).toBe(500);
    expect((await f(server.url, rpc('tools/call'))).status).toBe(500);
    const removedAt = await remove();
    expect(removedAt).toBeGreaterThan(0); // the rule is gone the moment it is removed: its own t_off
    expect((await f(server.url, rpc('tools/call'))).status).toBe(200);
    expect(server.seen.map((s) => JSON.parse(s.body).method)).toEqual(['initialize', 'tools/call']);
    expect(await hits()).toBe(2);
  });

  it('probability 0 never fires, and counts no hit (the negative control)', async () => {
    const { fetch: f, hits } = await withFault({ status: 500, probability: 0 });
    for (let i = 0; i < 5; i++) expect((await f(server.url, rpc('tools/call'))).status).toBe(200);
    expect(await hits()).toBe(0);
  });

  it('a rule matching no request counts no hit', async () => {
    const { fetch: f, hits } = await withFault({ status: 500, methods: ['resources/read'] });
    expect((await f(server.url, rpc('tools/call'))).status).toBe(200);
    expect(await hits()).toBe(0);
  });

  it('Retry-After as delta-seconds reaches the attempt as milliseconds', async () => {
    const { fetch: f } = await withFault({ status: 429, retryAfterS: 2 });
    const http = {};
    const { response, after } = await attemptCall(f, http);
    expect(response.headers.get('retry-after')).toBe('2');
    expect(http).toEqual({ status: 429, retryAfterMs: 2000 });
    // Once the attempt ended, a request carrying its trace is nobody's.
    expect(after).toBeUndefined();
  });

  it('Retry-After as an HTTP-date reaches the attempt as the time left until then', async () => {
    const { fetch: f } = await withFault({ status: 429, retryAfterS: 3, retryAfterForm: 'http-date' });
    const http: { retryAfterMs?: number } = {};
    const { response } = await attemptCall(f, http);
    expect(Number.isNaN(Date.parse(response.headers.get('retry-after')!))).toBe(false);
    // An HTTP-date has whole seconds: 3 s from now lands 2 to 3 s away.
    expect(http.retryAfterMs).toBeGreaterThan(1900);
    expect(http.retryAfterMs).toBeLessThanOrEqual(3000);
  });
});
