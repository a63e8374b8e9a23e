// Issue 4, server-behaviour seam: every shipped server profile's negative control shows the failure the resilient
// client avoids (the resilient runs are the default suite's: suite-checks/server-seam.ts). Each assertion reads
// what really happened (history, ledger, notes), not only the verdict, so a profile whose fault silently stopped
// firing fails here.
import { describe, expect, it } from 'vitest';
import { expectPassed, runShipped } from '../helpers/run.ts';

describe.concurrent('session-loss', () => {
  it('control none: keeps the stale session id, so every op after the eviction fails', async () => {
    const r = await runShipped('session-loss', 'none');
    expectPassed(r.report); // controls.none
    const fault = r.history.faults[0];
    const after = r.history.ops!.filter((o) => o.startMs > fault.onMs + 100);
    expect(after.length).toBeGreaterThan(20);
    expect(after.every((o) => o.outcome !== 'ok')).toBe(true);
    expect(r.report.metrics.recovery[0].recoveryMs).toBeNull();
  });
});

describe.concurrent('server-crash', () => {
  it('control naive: ops in flight at the crash end info with their effect present (result lost)', async () => {
    const r = await runShipped('server-crash', 'naive');
    expectPassed(r.report); // controls.naive
    const m = r.report.metrics;
    expect(m.delivery?.lost).toBeGreaterThan(0);
    // Classified by what the client saw: an in-flight write whose effect may exist is info, never fail.
    const lostOps = Object.entries(m.deliveryByOp ?? {}).filter(([, d]) => d === 'lost');
    for (const [opId] of lostOps) expect(r.history.ops!.find((o) => o.opId === opId)?.outcome).toBe('info');
    expect(m.ghostEffects).toBe(0);
  });
});

describe.concurrent('sse-stream-close', () => {
  it('control none: resumption needs no policy, so even a client without retries loses nothing', async () => {
    const r = await runShipped('sse-stream-close', 'none');
    expectPassed(r.report);
    const m = r.report.metrics;
    expect(m.delivery?.resumed).toBeGreaterThanOrEqual(20);
    expect(m.opsOk).toBeGreaterThanOrEqual(m.ops * 0.9);
  });
});

describe.concurrent('sse-stream-close-no-store', () => {
  it('control none: the tool ran but the client never got the result (info with an effect)', async () => {
    const r = await runShipped('sse-stream-close-no-store', 'none');
    expectPassed(r.report);
    const m = r.report.metrics;
    expect(m.delivery?.lost).toBeGreaterThanOrEqual(3);
    expect(m.reconciliation.infoWithEffectOps.length).toBe(m.delivery?.lost);
  });
});

describe.concurrent('get-stream-drop', () => {
  it('control none: the same, policy or not: the SDK transport gives up on its own', async () => {
    const r = await runShipped('get-stream-drop', 'none');
    expectPassed(r.report);
    expect(r.report.metrics.reconnectExhausted).toBeGreaterThanOrEqual(1);
  });
});

describe.concurrent('protocol-version-mismatch', () => {
  it('control naive: never re-initializes and storms the forgotten session with retries', async () => {
    const r = await runShipped('protocol-version-mismatch', 'naive');
    expectPassed(r.report);
    expect(r.report.metrics.attemptsPerOp.max).toBeGreaterThanOrEqual(5);
  });
});
