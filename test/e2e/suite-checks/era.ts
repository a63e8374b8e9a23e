// Issue 11 item 3, the resilient half: the 2026-07-28 era's own faults, each shipped profile in the pairing the
// suite runs it in (its own protocol choice). era-faults.test.ts and modern-wire-faults.test.ts run the controls
// and the other pairings.
import { expect, it } from 'vitest';
import { failing } from '../../helpers/run.ts';
import type { ShippedRun } from './shipped-run.ts';

export function eraChecks(shipped: ShippedRun): void {
  // One op at a time over an op window (ops 3-11, first two attempts): the status lookup after each loss finds the
  // charge, so the op is settled by it and never re-sent.
  it('drop-after-commit (legacy): each lost answer is settled by a status lookup that finds the charge; nothing charged twice', () => {
    const r = shipped('drop-after-commit');
    expect(failing(r)).toBe('');
    const hits = r.report.metrics.faultWindows[0].hits;
    expect(hits).toBeGreaterThan(0);
    const lost = r.history.ops!.filter((o) => o.failedAttempts > 0);
    // One lost answer per op that met the fault, each within the window, each found by its lookup.
    expect(lost.length).toBe(hits);
    for (const op of lost) {
      expect(Number(op.opId.slice(3))).toSatisfy((i: number) => i >= 3 && i <= 11);
      expect(op).toMatchObject({ attempts: 1, lookupsFound: 1 });
    }
    expect(r.report.metrics.duplicateEffects).toBe(0);
    expect(r.report.metrics.lostEffects).toBe(0);
    // Issue 28 item 1's replay accounting: no unsafe replay, no second charge, nothing indeterminate.
    expect(r.report.metrics).toMatchObject({
      unsafeReplays: 0,
      unsafeReplayDuplicates: 0,
      indeterminateEffects: 0,
      lyingHints: 0,
    });
    expect(r.report.metrics.lookups).toBeGreaterThan(0);
    // No lost answer waited out the attempt timeout: SDK 1.32 reports the broken stream, and with no event id to
    // resume from the client ends the attempt there (answer-lost.ts).
    const failed = (r.history.attempts ?? []).filter((a) => !a.ok).map((a) => a.errorCode);
    expect(failed).toHaveLength(hits ?? -1);
    expect(new Set(failed)).toEqual(new Set(['LINK.ANSWER_LOST']));
  });

  it('unsupported-version (auto): -32022 makes it negotiate again, fall back to 2025-11-25 and re-issue; every op ends ok', () => {
    const r = shipped('unsupported-version', 'auto');
    expect(failing(r)).toBe('');
    expect(r.report.metrics.errorsByCode['PROTO.VERSION_REFUSED']).toBeGreaterThan(0);
    expect(r.report.metrics.opsFail).toBe(0);
    expect(r.report.metrics.duplicateEffects).toBe(0);
    // The renewed connection's server/discover probe met the same refusal and fell back to initialize.
    expect(r.report.notes.join('\n')).toMatch(/negotiated protocol versions: 2026-07-28 \(1 session\), 2025-11-25/);
  });

  it("mixed-fleet (legacy): refused by the other era's replica, it re-issues with the same key; every op ends ok, charged once", () => {
    const r = shipped('mixed-fleet');
    expect(failing(r)).toBe('');
    expect(r.report.metrics.faultWindows[0].hits).toBeGreaterThan(0);
    // Attempts refused by the replica of the other era (the real answers of SDK 2.4's and SDK 1.32's front ends).
    const refused = r.history.attempts!.filter(
      (a) => a.errorCode === 'PROTO.VERSION_REFUSED' || a.errorCode === 'PROTO.NOT_INITIALIZED',
    );
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.every((a) => a.next === 'retry')).toBe(true);
    expect(r.history.attempts!.filter((a) => a.attempt > 1).every((a) => a.idempotencyKey === `idem-${a.opId}`)).toBe(
      true,
    );
    expect(r.report.metrics.opsFail).toBe(0);
    expect(r.report.metrics.duplicateEffects).toBe(0);
  });

  it('mcp-header-strip (modern): the server refuses every tampered call with -32020, nothing runs twice, every op ends ok', () => {
    const r = shipped('mcp-header-strip', 'modern');
    expect(failing(r)).toBe('');
    expect(r.report.metrics.headerMismatchRejected).toBeGreaterThan(0);
    expect(r.report.metrics.headerMismatchExecuted).toBe(0);
    expect(r.report.metrics.errorsByCode['PROTO.HEADER_MISMATCH']).toBeGreaterThan(0);
    // The strip's op window: ops 11..22, their first two attempts, each a call and SDK 2.4's one re-send.
    expect(r.report.metrics.faultWindows[0].hits).toBe(12 * 2 * 2);
  });

  it('discover-faults (auto): probes again after a failed probe, never falls back on a bare 400, every op ends ok', () => {
    const r = shipped('discover-faults', 'auto');
    expect(failing(r)).toBe('');
    expect(r.report.metrics.discoveryRetries).toBeGreaterThan(0);
    expect(r.report.metrics.wrongFallbacks).toBe(0);
    expect(r.report.metrics.errorsByCode['PROTO.DISCOVERY_AMBIGUOUS']).toBeGreaterThan(0);
    // Every connect that succeeded agreed on 2026-07-28.
    const agreed = (r.history.discovery ?? []).filter((c) => c.negotiated !== undefined);
    expect(agreed.length).toBeGreaterThan(1);
    expect(agreed.every((c) => c.negotiated === '2026-07-28')).toBe(true);
  });
}
