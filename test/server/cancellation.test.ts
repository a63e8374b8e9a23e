// generate_report honours cancellation: aborted before its commit, it leaves no effect; completed, exactly one.
import { describe, expect, it } from 'vitest';
import { call, connect, key, startServer, waitFor } from './helpers.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('generate_report cancellation', () => {
  it('a cancelled report leaves no effect, a completed one leaves one', async () => {
    const server = await startServer();
    const { client } = await connect(server.url);
    const abort = new AbortController();
    const cancelled = call(
      client,
      'generate_report',
      { report_type: 'audit', idempotency_key: key('rep'), duration_ms: 1500 },
      { signal: abort.signal, traceId: 'op-cancel' },
    ).catch((e: unknown) => e);
    await waitFor(async () => ((await server.quiescence())?.inFlight ?? 0) > 0); // the handler is running
    abort.abort('user changed their mind');
    expect(await cancelled).toBeInstanceOf(Error);
    // Well past the report's own duration: had the handler ignored the abort, it would have committed by now.
    await sleep(2000);
    expect(await server.ledger()).toEqual([]);

    const done = await call(
      client,
      'generate_report',
      { report_type: 'audit', idempotency_key: key('rep'), duration_ms: 200 },
      { traceId: 'op-done' },
    );
    expect(done.isError).toBeFalsy();
    expect((await server.ledger()).map((e) => [e.kind, e.traceId])).toEqual([['report.generate', 'op-done']]);
  });
});

describe('quiescence: every handler counts until it settles', () => {
  it('a report that ignores its cancellation stays in flight until its late commit, then the server is quiet', async () => {
    const server = await startServer();
    const { client } = await connect(server.url);
    expect(await server.quiescence()).toMatchObject({ inFlight: 0, lastEffectAtMs: null });
    const abort = new AbortController();
    const cancelled = call(
      client,
      'generate_report',
      { report_type: 'audit', idempotency_key: key('rep'), duration_ms: 1200, ignore_cancel: true },
      { signal: abort.signal, traceId: 'op-ghost' },
    ).catch((e: unknown) => e);
    // Aborted once the server has the call in hand (waited for: a fixed pause may end before it arrives).
    await waitFor(async () => ((await server.quiescence())?.inFlight ?? 0) > 0);
    abort.abort('the client gave up');
    expect(await cancelled).toBeInstanceOf(Error);
    const cancelledAt = Date.now();
    // The client is done with it; the server is not: the handler keeps building.
    expect((await server.quiescence())?.inFlight).toBe(1);
    expect(await server.ledger()).toEqual([]);
    let q = await server.quiescence();
    while (q && q.inFlight > 0 && Date.now() - cancelledAt < 8000) {
      await sleep(25);
      q = await server.quiescence();
    }
    expect(q?.inFlight).toBe(0);
    const [effect] = await server.ledger();
    expect(effect).toMatchObject({ kind: 'report.generate', traceId: 'op-ghost' });
    expect(effect.atMs).toBeGreaterThan(cancelledAt); // committed after the client had given up
    expect(q?.lastEffectAtMs).toBe(effect.atMs);
  });
});
