// The server-seam profile fault kinds against a real server child: overlapping windows merge into one behaviour
// set and removing one keeps the other; crash kills for real and its removal restarts on the same port from a
// pre-forked standby; each window counts its own hits (evictions, streams closed, answers changed, kills), and a
// window with nothing to act on counts 0; and the delivery classification of the server-seam metrics.
import { describe, expect, it } from 'vitest';
import type { AttemptRecord, History, OpRecord } from '../../src/core/history.ts';
import { RandomStream } from '../../src/core/random.ts';
import type { FaultContext, FaultKind } from '../../src/faults/kind.ts';
import { findFaultKind } from '../../src/faults/registry.ts';
import { computeMetrics } from '../../src/measure/metrics.ts';
import type { ServerHandle } from '../../src/targets/child-target.ts';
import { call, connect, key, payment, startServer } from './helpers.ts';

function ctxFor(server: ServerHandle, id: string): FaultContext {
  return { env: { server } as unknown as FaultContext['env'], id, random: new RandomStream(1, id) };
}

function kind(name: string): FaultKind {
  const k = findFaultKind('server', name);
  if (!k) throw new Error(`server fault kind ${name} is not registered`);
  return k;
}

async function apply(server: ServerHandle, name: string, id: string, raw: Record<string, unknown> = {}) {
  const k = kind(name);
  return k.apply(k.params.parse(raw), ctxFor(server, id));
}

describe('server fault kinds', () => {
  it('are registered with seam server and strict params', () => {
    for (const name of ['evict-sessions', 'stream-close', 'get-stream-drop', 'protocol-version', 'crash']) {
      expect(kind(name).seam).toBe('server');
    }
    expect(kind('crash').params.safeParse({ restartAfterMs: 500, bogus: 1 }).success).toBe(false);
    expect(kind('protocol-version').params.safeParse({}).success).toBe(false); // version is required
  });

  it('overlapping windows merge; removing one leaves the other active', async () => {
    const server = await startServer({ retryIntervalMs: 100 });
    const version = await apply(server, 'protocol-version', 'w1', {
      version: '2024-11-05',
      evictSessions: false,
    });
    const streamClose = await apply(server, 'stream-close', 'w2', {});
    const { client, transport } = await connect(server.url);
    expect(transport.protocolVersion).toBe('2024-11-05');
    await version.remove();
    // Stream close is still on: a fresh (2025-11-25) session resumes its closed stream.
    const { client: fresh, transport: freshTransport } = await connect(server.url);
    expect(freshTransport.protocolVersion).toBe('2025-11-25');
    await call(fresh, 'search_documents', { query: 'x' }, { timeout: 5000 });
    expect((await server.behaviourStats()).toolStreamsClosed).toBe(1);
    await streamClose.remove();
    await call(client, 'search_documents', { query: 'y' }, { timeout: 5000 });
    expect((await server.behaviourStats()).toolStreamsClosed).toBe(1);
    // Each window's own hits: one initialize answered with the override, one stream closed.
    expect(await version.hits()).toBe(1);
    expect(await streamClose.hits()).toBe(1);
  });

  it('a behaviour window with nothing to act on counts no hit (the negative control)', async () => {
    const server = await startServer();
    const { client } = await connect(server.url);
    const evictNone = await apply(server, 'evict-sessions', 'w-none', { now: false, afterRequests: 1000 });
    const closeOther = await apply(server, 'stream-close', 'w-other', { tools: ['no_such_tool'] });
    expect((await call(client, 'search_documents', { query: 'x' })).isError).toBeFalsy();
    await evictNone.remove();
    await closeOther.remove();
    expect(await evictNone.hits()).toBe(0);
    expect(await closeOther.hits()).toBe(0);
  });

  it('evict-sessions evicts at once when the window opens, and only then', async () => {
    const server = await startServer();
    const { client } = await connect(server.url);
    const evict = await apply(server, 'evict-sessions', 'w', { now: true });
    expect(await call(client, 'search_documents', { query: 'x' }).catch((e: unknown) => e)).toMatchObject({
      code: 404,
    });
    const { client: fresh } = await connect(server.url);
    await evict.remove();
    expect((await call(fresh, 'search_documents', { query: 'x' })).isError).toBeFalsy();
    expect((await server.behaviourStats()).sessionsEvicted).toBe(1);
    expect(await evict.hits()).toBe(1);
  });

  it('crash SIGKILLs the child; the window stop restarts it on the same port from a standby, ledger intact', async () => {
    const server = await startServer();
    const { client } = await connect(server.url);
    await call(client, 'create_payment', payment(key('pay')), { traceId: 'op-before' });
    const pid = server.pid!;
    const port = server.port;
    const crash = await apply(server, 'crash', 'w', {});
    expect(await crash.hits()).toBe(1); // one live process killed
    // alive stays true until the kill's exit event arrives: waited for, not slept for.
    for (const end = Date.now() + 8000; server.alive && Date.now() < end; ) await new Promise((r) => setTimeout(r, 25));
    expect(server.alive).toBe(false);
    expect(() => process.kill(pid, 0)).toThrow(); // really gone
    const refused = await fetch(server.url, { method: 'POST' }).catch((e: unknown) => e);
    expect((refused as { cause?: { code?: string } }).cause?.code).toBe('ECONNREFUSED');
    await new Promise((r) => setTimeout(r, 1500)); // the standby loads its modules meanwhile
    const started = Date.now();
    await crash.remove();
    const restartMs = Date.now() - started;
    // A warm standby only has to listen; a cold fork loads every module first. Compared with one cold start
    // measured now, so a loaded machine slows both (a fixed 2.5 s bound assumed quiet cores).
    const coldStarted = Date.now();
    await startServer();
    const coldMs = Date.now() - coldStarted;
    console.log(`crash window stop: restarted from the standby in ${restartMs} ms (one cold start here: ${coldMs} ms)`);
    expect(restartMs).toBeLessThan(coldMs);
    expect(server.alive).toBe(true);
    expect(server.pid).not.toBe(pid);
    expect(server.port).toBe(port);
    expect(await server.ledger()).toHaveLength(1);
    const { client: fresh } = await connect(server.url);
    expect((await call(fresh, 'search_documents', { query: 'x' })).isError).toBeFalsy();
  });

  it('crash with restartAfterMs comes back by itself; the window stop then just waits for it', async () => {
    const server = await startServer();
    const pid = server.pid!;
    const crash = await apply(server, 'crash', 'w', { restartAfterMs: 300 });
    const deadline = Date.now() + 8000;
    // alive stays true until the kill's exit event arrives: wait for a new, live child.
    while (!(server.alive && server.pid !== pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(server.alive).toBe(true);
    expect(server.pid).not.toBe(pid);
    const newPid = server.pid;
    await crash.remove();
    expect(server.pid).toBe(newPid); // no second restart
  });
});

describe('delivery classification (server-seam metrics)', () => {
  const T = 1_700_000_000_000;
  const op = (opId: string, outcome: OpRecord['outcome'], extra: Partial<OpRecord> = {}): OpRecord => ({
    opId,
    tool: 'create_payment',
    sideEffecting: true,
    startMs: T,
    endMs: T + 100,
    outcome,
    attempts: 1,
    failedAttempts: outcome === 'ok' ? 0 : 1,
    ...extra,
  });
  const att = (opId: string, n: number, ok: boolean, extra: Partial<AttemptRecord> = {}): AttemptRecord => ({
    opId,
    attempt: n,
    startMs: T,
    endMs: T + 50,
    ok,
    ...extra,
  });
  const timeout = { errorCode: 'LINK.TIMEOUT', uncertain: true, message: 'MCP error -32001: Request timed out' };
  const fx = (traceId: string, seq: number) => ({ seq, atMs: T, kind: 'payment.charge' as const, traceId });

  it('labels once, resumed, resent, lost, duplicated, hung and failed', () => {
    const history: History = {
      startMs: T,
      endMs: T + 1000,
      faults: [],
      decisions: [],
      ops: [
        op('once', 'ok'),
        op('resumed', 'ok'),
        op('resent', 'ok', { attempts: 2 }),
        op('lost', 'info'),
        op('dup', 'ok', { attempts: 2 }),
        op('hung', 'fail'),
        op('failed', 'fail'),
      ],
      attempts: [
        att('once', 1, true),
        att('resumed', 1, true, { resumptions: 1 }),
        att('resent', 1, false, timeout),
        att('resent', 2, true),
        att('lost', 1, false, timeout),
        att('dup', 1, false, timeout),
        att('dup', 2, true),
        att('hung', 1, false, timeout),
        // A server-side dependency timeout is not a client hang.
        att('failed', 1, false, { errorCode: 'DEPENDENCY.TIMEOUT', message: 'payments did not answer in 1000 ms' }),
      ],
      effects: [fx('once', 1), fx('resumed', 2), fx('resent', 3), fx('lost', 4), fx('dup', 5), fx('dup', 6)],
      transportEvents: [
        { atMs: T, kind: 'reconnect-failed', message: 'Failed to reconnect SSE stream: 503' },
        { atMs: T, kind: 'reconnect-exhausted', message: 'Maximum reconnection attempts (3) exceeded.' },
      ],
    };
    const m = computeMetrics(history);
    expect(m.delivery).toEqual({
      once: 1,
      resumed: 1,
      resent: 1,
      lost: 1,
      ghost: 0,
      duplicated: 1,
      hung: 1,
      failed: 1,
    });
    expect(m.deliveryByOp).toEqual({
      resumed: 'resumed',
      resent: 'resent',
      lost: 'lost',
      dup: 'duplicated',
      hung: 'hung',
      failed: 'failed',
    });
    expect(m.sseResumptions).toBe(1);
    expect(m.attemptsTimedOut).toBe(4);
    expect(m.reconnectExhausted).toBe(1);
    expect(m.transportEvents).toEqual({ 'reconnect-failed': 1, 'reconnect-exhausted': 1 });
  });
});
