// Every dependency fault kind maps to its ToolError. One server per file (child start-up is the slow part); its
// state is reset after each test, and it is stopped after the file.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DependencyFaultSpecInput } from '../../mocks/faults/registry.ts';
import { ATTEMPT_META_KEY, TRACE_META_KEY } from '../../src/core/wire.ts';
import { ServerHandle } from '../../src/targets/child-target.ts';
import { call, connect, errorOf, key, payment, waitFor } from './helpers.ts';

let server: ServerHandle;
let client: Client;

beforeAll(async () => {
  server = await ServerHandle.start({ seed: 11, dependencyTimeoutMs: 800 });
});
afterAll(async () => {
  await server?.stop();
});
afterEach(async () => {
  await server.reset();
});

async function payWith(fault: DependencyFaultSpecInput) {
  await server.setDependencyFaults([fault]);
  ({ client } = await connect(server.url));
  return call(client, 'create_payment', payment(key('pay')), { traceId: 'op-fault' });
}

describe('dependency faults map to ToolErrors', () => {
  it.each([
    [{ kind: 'status', status: 503 }, 'DEPENDENCY.UNAVAILABLE', true, 0],
    [{ kind: 'status', status: 500 }, 'DEPENDENCY.UNAVAILABLE', true, 0],
    [{ kind: 'status', status: 401 }, 'AUTH.TOKEN_EXPIRED', false, 0],
    [{ kind: 'network-error' }, 'DEPENDENCY.NETWORK', true, 0],
    [{ kind: 'network-error', when: 'after' }, 'DEPENDENCY.NETWORK', true, 1],
    [{ kind: 'hang' }, 'DEPENDENCY.TIMEOUT', true, 0],
    [{ kind: 'auth-expiry', ttlMs: 0 }, 'AUTH.TOKEN_EXPIRED', false, 0],
    [{ kind: 'malformed', variant: 'invalid-json' }, 'DEPENDENCY.BAD_RESPONSE', true, 1],
    [{ kind: 'malformed', variant: 'truncated' }, 'DEPENDENCY.BAD_RESPONSE', true, 1],
    [{ kind: 'malformed', variant: 'control-chars' }, 'DEPENDENCY.BAD_RESPONSE', true, 1],
    [{ kind: 'malformed', variant: 'wrong-content-type' }, 'DEPENDENCY.BAD_RESPONSE', true, 1],
    [{ kind: 'commit-then-fail', status: 502 }, 'DEPENDENCY.UNAVAILABLE', true, 1],
    [{ kind: 'leak-canary' }, 'DEPENDENCY.UNAVAILABLE', true, 0],
  ] as const)('%j -> %s (retryable %s, %i effects)', async (params, code, retryable, effects) => {
    const result = await payWith({ id: 'f', dependency: 'payments', ...params } as DependencyFaultSpecInput);
    const error = errorOf(result);
    expect(error.errorCode).toBe(code);
    expect(error.category).toBe(code.split('.')[0]);
    expect(error.retryable).toBe(retryable);
    expect(error.requestId).toMatch(/^req_/);
    expect(result.content).toEqual([expect.objectContaining({ type: 'text', text: expect.stringContaining(code) })]);
    expect(await server.ledger()).toHaveLength(effects);
  });

  it('a server-side timeout on a side effect is DEPENDENCY.TIMEOUT with details.uncertain', async () => {
    const error = errorOf(await payWith({ id: 'h', dependency: '*', kind: 'hang' }));
    expect(error).toMatchObject({ errorCode: 'DEPENDENCY.TIMEOUT', retryable: true, details: { uncertain: true } });
    ({ client } = await connect(server.url));
    const search = errorOf(await call(client, 'search_documents', { query: '*' }));
    expect(search.errorCode).toBe('DEPENDENCY.TIMEOUT');
    expect(search.details?.uncertain).toBeUndefined();
  });

  it('rate-limit gives retryAfterMs from Retry-After in seconds form', async () => {
    const error = errorOf(await payWith({ id: 'rl', dependency: 'payments', kind: 'rate-limit', retryAfterS: 2 }));
    expect(error).toMatchObject({ errorCode: 'DEPENDENCY.RATE_LIMITED', retryable: true, retryAfterMs: 2000 });
  });

  it('rate-limit gives retryAfterMs from Retry-After in HTTP-date form', async () => {
    const error = errorOf(
      await payWith({ id: 'rl', dependency: 'payments', kind: 'rate-limit', retryAfterS: 3, form: 'http-date' }),
    );
    expect(error.errorCode).toBe('DEPENDENCY.RATE_LIMITED');
    // An HTTP-date has one-second resolution; allow for the IPC and scheduling slack of two noisy cores.
    expect(error.retryAfterMs).toBeGreaterThanOrEqual(1500);
    expect(error.retryAfterMs).toBeLessThanOrEqual(4000);
  });

  it('rate-limit with a quota refuses only calls above it', async () => {
    await server.setDependencyFaults([
      { id: 'q', dependency: 'search', kind: 'rate-limit', retryAfterS: 1, quotaPerSecond: 2 },
    ]);
    ({ client } = await connect(server.url));
    const results = await Promise.all([1, 2, 3, 4].map(() => call(client, 'search_documents', { query: '*' })));
    const limited = results.filter((r) => r.isError).map((r) => errorOf(r).errorCode);
    // Two fit in the window; if the calls straddle a window boundary, fewer are refused.
    expect(limited.length).toBeGreaterThanOrEqual(1);
    expect(limited.length).toBeLessThanOrEqual(2);
    expect(new Set(limited)).toEqual(new Set(['DEPENDENCY.RATE_LIMITED']));
  });

  it('flap fails the first N calls, then succeeds', async () => {
    await server.setDependencyFaults([{ id: 'fl', dependency: 'search', kind: 'flap', failTimes: 2, status: 503 }]);
    ({ client } = await connect(server.url));
    const codes = [];
    for (let i = 0; i < 4; i++) {
      const r = await call(client, 'search_documents', { query: '*' });
      codes.push(r.isError ? errorOf(r).errorCode : 'ok');
    }
    expect(codes).toEqual(['DEPENDENCY.UNAVAILABLE', 'DEPENDENCY.UNAVAILABLE', 'ok', 'ok']);
  });

  it('latency delays but succeeds; an unrelated dependency is not affected', async () => {
    await server.setDependencyFaults([{ id: 'lat', dependency: 'search', kind: 'latency', ms: 400 }]);
    ({ client } = await connect(server.url));
    const t0 = performance.now();
    expect((await call(client, 'search_documents', { query: '*' })).isError).toBeFalsy();
    expect(performance.now() - t0).toBeGreaterThanOrEqual(350);
    expect((await call(client, 'get_payment_status', { idempotency_key: key('pay') })).isError).toBeFalsy();
  });

  it('oversized makes the search result huge', async () => {
    await server.setDependencyFaults([{ id: 'big', dependency: 'search', kind: 'oversized', bytes: 2_000_000 }]);
    ({ client } = await connect(server.url));
    const result = await call(client, 'search_documents', { query: '*' });
    expect(result.isError).toBeFalsy();
    expect(JSON.stringify(result.structuredContent).length).toBeGreaterThan(2_000_000);
  });

  it('probability draws come from the seeded stream and are logged', async () => {
    await server.setDependencyFaults([
      { id: 'coin', dependency: 'search', kind: 'status', status: 503, probability: 0.5 },
    ]);
    ({ client } = await connect(server.url));
    const outcomes = [];
    for (let i = 0; i < 8; i++)
      outcomes.push((await call(client, 'search_documents', { query: '*' })).isError === true);
    // No trace id: the fault's own stream, in arrival order.
    const decisions = (await server.decisions()).filter((d) => d.stream === 'deps/fault/coin');
    expect(decisions.map((d) => d.value)).toEqual(outcomes);
  });

  it("keyed draws: the server forwards the op's trace id and attempt, and the draw is logged under that key", async () => {
    await server.setDependencyFaults([
      { id: 'coin', dependency: 'search', kind: 'status', status: 503, probability: 0.5 },
    ]);
    ({ client } = await connect(server.url));
    const search = (op: string, attempt: number) =>
      client.callTool({
        name: 'search_documents',
        arguments: { query: '*' },
        _meta: { [TRACE_META_KEY]: op, [ATTEMPT_META_KEY]: attempt },
      });
    const first: boolean[] = [];
    for (let op = 0; op < 6; op++) first.push((await search(`op-${op}`, 2)).isError === true);
    const decisions = await server.decisions();
    expect(decisions.map((d) => d.stream)).toEqual(
      Array.from({ length: 6 }, (_, op) => `deps/fault/coin/op-${op}/attempt-2/request-1`),
    );
    expect(decisions.map((d) => d.value)).toEqual(first);
    expect(new Set(first).size).toBe(2); // both outcomes occur, so equality below is not trivial
    // The same keys after a reset (and in another order) draw the same values: they do not depend on arrival.
    await server.reset();
    await server.setDependencyFaults([
      { id: 'coin', dependency: 'search', kind: 'status', status: 503, probability: 0.5 },
    ]);
    const again: boolean[] = [];
    for (let op = 5; op >= 0; op--) again.unshift((await search(`op-${op}`, 2)).isError === true);
    expect(again).toEqual(first);
  });

  it('commit-then-delay beyond the client timeout is a ghost write that get_payment_status finds', async () => {
    await server.setDependencyFaults([{ id: 'ghost', dependency: 'payments', kind: 'commit-then-delay', ms: 600 }]);
    ({ client } = await connect(server.url));
    const k = key('pay');
    const error = await call(client, 'create_payment', payment(k), { timeout: 300, traceId: 'op-ghost' }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32001); // the client saw a timeout
    // The charge lands when the call reaches the payments API, which on busy cores can be after the 300 ms.
    await waitFor(async () => (await server.ledger()).length > 0);
    const ledger = await server.ledger();
    expect(ledger).toEqual([
      expect.objectContaining({ kind: 'payment.charge', traceId: 'op-ghost', idempotencyKey: k }),
    ]);
    const status = await call(client, 'get_payment_status', { idempotency_key: k });
    expect(status.structuredContent).toMatchObject({ status: 'succeeded' });
  });

  it('get_payment_status says processing while a create_payment with that key is in flight', async () => {
    // Only the charge (POST) is slowed, so the status lookup (GET) answers at once; the lookup starts once the
    // server has the create_payment in hand (waited for, not slept for) and has the 700 ms of the charge (under
    // this server's 800 ms dependency timeout) to finish. Before, a 150 ms sleep had to outlast the call's arrival.
    await server.setDependencyFaults([
      { id: 'slow', dependency: 'payments', kind: 'latency', method: 'POST', ms: 700 },
    ]);
    ({ client } = await connect(server.url));
    const k = key('pay');
    const pending = call(client, 'create_payment', payment(k));
    await waitFor(async () => ((await server.quiescence())?.inFlight ?? 0) > 0);
    const status = await call(client, 'get_payment_status', { idempotency_key: k });
    expect(status.structuredContent).toMatchObject({ status: 'processing' });
    expect((await pending).isError).toBeFalsy();
  });

  it('fault specs are validated with readable errors', async () => {
    await expect(
      server.setDependencyFaults([{ id: 'x', dependency: 'payments', kind: 'explode' } as never]),
    ).rejects.toThrow(/unknown dependency fault `kind`; expected one of: latency/);
  });
});

describe('dependency fault hits, counted by the server child', () => {
  it('a fault counts the requests it answered; one on an API no call uses counts 0', async () => {
    await server.setDependencyFaults([
      { id: 'pay-down', dependency: 'payments', kind: 'status', status: 503 },
      { id: 'search-down', dependency: 'search', kind: 'status', status: 503 },
    ]);
    ({ client } = await connect(server.url));
    for (let i = 0; i < 2; i++) await call(client, 'create_payment', payment(key('pay')), { traceId: `op-${i}` });
    const hits = await server.faultHits();
    expect(hits['pay-down']).toBe(2); // one payments request per call, each answered 503
    expect(hits['search-down'] ?? 0).toBe(0);
  });
});
