// The reference stdio server on SDK 2.4 (serveStdio): a pinned SDK 2.4 client speaks 2026-07-28 over the pipe
// (server/discover in place, no initialize, no session), the strict front end refuses a 2025-era opening, the dual
// one serves both, and the stdio profiles run in the modern pairing with their faults hitting the pipe.
import { describe, expect, it } from 'vitest';
import { Connection } from '../../src/client/connection.ts';
import { MODERN_VERSION, PAIRINGS } from '../../src/core/pairing.ts';
import { StdioEdgeController } from '../../src/faults/edge/stdio/controller.ts';
import type { ProfileResult } from '../../src/run/run-profile.ts';
import { StdioTarget } from '../../src/targets/stdio-target.ts';
import { failing, runShipped } from '../helpers/run.ts';

const pairing = (name: string) => PAIRINGS.find((p) => p.name === name)!;
const note = (r: ProfileResult, re: RegExp) => r.report.notes?.find((n) => re.test(n));
const search = { name: 'search_documents', arguments: { query: 'invoice' } };

async function withTarget(frontEnd: 'sdk2' | 'dual', body: (target: StdioTarget) => Promise<void>): Promise<void> {
  const target = new StdioTarget({ seed: 3, edge: new StdioEdgeController(), frontEnd });
  try {
    await body(target);
  } finally {
    await target.close();
  }
}

/** SDK 2.4's client with `negotiation`, or SDK 1.32's without. */
const open = (target: StdioTarget, negotiation?: 'auto' | { pin: string }) =>
  Connection.open({
    url: 'stdio:reference',
    transport: target.createTransport,
    connectTimeoutMs: 20_000,
    ...(negotiation && { sdk2: { negotiation } }),
  });

describe('stdio on SDK 2.4 (serveStdio)', () => {
  it('sdk2: a pinned SDK 2.4 client gets 2026-07-28 with no session; an SDK 1.32 client is refused', async () => {
    await withTarget('sdk2', async (target) => {
      const modern = await open(target, { pin: MODERN_VERSION });
      try {
        expect(modern.protocolVersion).toBe(MODERN_VERSION);
        expect(modern.transport.sessionId).toBeUndefined();
        const result = await modern.client.callTool(search);
        expect(result.isError).toBeFalsy();
        expect(JSON.stringify(result)).toContain('io.modelcontextprotocol/serverInfo');
      } finally {
        await modern.close();
      }
      const legacy = await open(target).then(
        async (c) => {
          await c.close();
          return 'connected';
        },
        (error: Error) => error.message,
      );
      expect(legacy).not.toBe('connected');
    });
  }, 60_000);

  it('dual: SDK 2.4 in auto negotiation gets 2026-07-28, SDK 1.32 gets 2025-11-25, from one server build', async () => {
    await withTarget('dual', async (target) => {
      const auto = await open(target, 'auto');
      const legacy = await open(target);
      try {
        expect(auto.protocolVersion).toBe(MODERN_VERSION);
        expect(legacy.protocolVersion).toBe('2025-11-25');
        expect((await auto.client.callTool(search)).isError).toBeFalsy();
        expect((await legacy.client.callTool(search)).isError).toBeFalsy();
      } finally {
        await auto.close();
        await legacy.close();
      }
    });
  }, 60_000);
});

describe.concurrent('stdio profiles in the modern pairing (SDK 2.4 both sides, 2026-07-28 on the pipe)', () => {
  const modern = pairing('modern');
  const onModernWire = (r: ProfileResult) => {
    expect(note(r, /negotiated protocol versions: 2026-07-28 \(\d+ session/)).toBeDefined();
    expect(note(r, /2025-11-25/)).toBeUndefined();
  };

  // Before the fix in stdio-transport.ts this failed on modern under load (ops_info 1 in 3 of 6 runs): a call sent in
  // the moment between the kill and the transport's 'close' failed with EPIPE, an unknown client error, so its
  // payment was left uncertain. It now fails as not connected (the child never read it) and is retried.
  it('stdio-crash: the killed child is respawned and re-probed, nothing lost or doubled', async () => {
    const r = await runShipped('stdio-crash', undefined, undefined, modern);
    expect(failing(r)).toBe('');
    onModernWire(r);
    expect(note(r, /spawned [2-9] server process\(es\); 1 killed/)).toBeDefined();
    expect(r.report.metrics.retriedOps).toBeGreaterThan(0);
  }, 120_000);

  it('stdio-crash control on modern: with no retries the calls after the crash fail', async () => {
    const r = await runShipped('stdio-crash', 'none', undefined, modern);
    expect(failing(r)).toBe(''); // controls.none: error_rate > 0.3
    onModernWire(r);
    expect(r.report.metrics.opsOk).toBeLessThan(r.report.metrics.ops * 0.7);
  }, 120_000);

  it('stdio-oversized-line: the interposer’s 11 MiB line closes the transport on SDK 2.4 too', async () => {
    const r = await runShipped('stdio-oversized-line', undefined, undefined, modern);
    expect(failing(r)).toBe('');
    onModernWire(r);
    expect(note(r, /1 line\(s\) over the framing limit closed the transport/)).toBeDefined();
    expect(r.report.metrics.retriedOps).toBeGreaterThan(0);
  }, 120_000);

  it('stdio-malformed-line: bad lines on the pipe reach onerror; none is taken for an answer', async () => {
    const r = await runShipped('stdio-malformed-line', undefined, undefined, modern);
    expect(failing(r)).toBe('');
    onModernWire(r);
    const spoiled = Number(/malformed-line (\d+)/.exec(note(r, /exchanges spoiled/) ?? '')?.[1]);
    expect(spoiled).toBeGreaterThan(5);
  }, 120_000);

  it('stdio-malformed-line control on modern: with no retries the lost answers fail their ops', async () => {
    const r = await runShipped('stdio-malformed-line', 'none', undefined, modern);
    expect(failing(r)).toBe(''); // controls.none: error_rate > 0
    onModernWire(r);
    expect(r.report.metrics.opsFail + r.report.metrics.opsInfo).toBeGreaterThan(0);
  }, 120_000);

  it('stdio-slow-writes: answers dribble out in chunks on the pipe', async () => {
    const r = await runShipped('stdio-slow-writes', undefined, undefined, modern);
    expect(failing(r)).toBe('');
    onModernWire(r);
    expect(Number(/slow-write (\d+)/.exec(note(r, /exchanges spoiled on the pipe/) ?? '')?.[1])).toBeGreaterThan(5);
  }, 120_000);
});
