// Issue 11 item 3, the resilient half: the 2026-07-28 era's own faults, each shipped profile in the pairing the
// suite runs it in (its own protocol choice). era-faults.test.ts and modern-wire-faults.test.ts run the controls
// and the other pairings.
import { expect, it } from 'vitest';
import type { ProfileResult } from '../../../src/run/run-profile.ts';
import { failing } from '../../helpers/run.ts';
import type { ShippedRun } from './shipped-run.ts';

/**
 * drop-after-commit runs one op at a time over an op window (ops 3-11, first two attempts): the status lookup after
 * each loss finds the charge, so the op is settled by it and never re-sent; no lost answer waits out the attempt
 * timeout, each ends as `lostAs` (SDK 1.32 reports the broken stream and the client ends the attempt there,
 * answer-lost.ts: LINK.ANSWER_LOST; SDK 2.4 on the 2026 wire fails the fetch: LINK.RESET).
 */
export function expectLostAnswersSettled(r: ProfileResult, lostAs: string): void {
  expect(failing(r)).toBe('');
  const m = r.report.metrics;
  const hits = m.faultWindows[0].hits;
  expect(hits).toBeGreaterThan(0);
  const lost = r.history.ops!.filter((o) => o.failedAttempts > 0);
  // One lost answer per op that met the fault, each within the window, each found by its lookup.
  expect(lost.length).toBe(hits);
  for (const op of lost) {
    expect(Number(op.opId.slice(3))).toSatisfy((i: number) => i >= 3 && i <= 11);
    expect(op).toMatchObject({ attempts: 1, lookupsFound: 1 });
  }
  // Issue 28 item 1's replay accounting too: no unsafe replay, no second charge.
  expect(m).toMatchObject({ duplicateEffects: 0, lostEffects: 0, unsafeReplays: 0, unsafeReplayDuplicates: 0 });
  const failed = (r.history.attempts ?? []).filter((a) => !a.ok).map((a) => a.errorCode);
  expect(failed).toHaveLength(hits ?? -1);
  expect(new Set(failed)).toEqual(new Set([lostAs]));
}

/** Attempts refused by the replica of the other era (the real answers of SDK 2.4's and SDK 1.32's front ends). */
export const refusedByOtherEra = (r: ProfileResult) =>
  r.history.attempts!.filter((a) => a.errorCode === 'PROTO.VERSION_REFUSED' || a.errorCode === 'PROTO.NOT_INITIALIZED');

/** mixed-fleet, resilient: refused by the other era's replica, it re-issues with the same key; every op ends ok. */
export function expectFleetReissued(r: ProfileResult): void {
  expect(failing(r)).toBe('');
  expect(r.report.metrics.faultWindows[0].hits).toBeGreaterThan(0);
  const refused = refusedByOtherEra(r);
  expect(refused.length).toBeGreaterThan(0);
  expect(refused.every((a) => a.next === 'retry')).toBe(true);
  expect(r.history.attempts!.filter((a) => a.attempt > 1).every((a) => a.idempotencyKey === `idem-${a.opId}`)).toBe(
    true,
  );
  expect(r.report.metrics.opsFail).toBe(0);
  expect(r.report.metrics.duplicateEffects).toBe(0);
}

export function eraChecks(shipped: ShippedRun): void {
  it('drop-after-commit (legacy): each lost answer is settled by a status lookup that finds the charge; nothing charged twice', () => {
    const r = shipped('drop-after-commit');
    expectLostAnswersSettled(r, 'LINK.ANSWER_LOST');
    // Nothing indeterminate, no lying hint, and the lookups that settled it.
    expect(r.report.metrics).toMatchObject({ indeterminateEffects: 0, lyingHints: 0 });
    expect(r.report.metrics.lookups).toBeGreaterThan(0);
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
    expectFleetReissued(shipped('mixed-fleet'));
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
