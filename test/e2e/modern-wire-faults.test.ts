// Issue 11 item 3 (second half): faults only the 2026-07-28 wire has. A proxy stripping or rewriting the Mcp-*
// routing headers (the server must refuse, never run the call), and faults on the server/discover probe (5xx,
// a held-back answer, a bare 400 the SDK would fall back on). Each control shows its detector firing; each
// profile's resilient run in its own pairing is the default suite's (suite-checks/era.ts).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { PolicyName } from '../../src/client/policies/index.ts';
import type { ClientPolicy } from '../../src/client/policy.ts';
import { PAIRINGS } from '../../src/core/pairing.ts';
import { inertWindows } from '../../src/measure/fault-windows.ts';
import { createNetworkBackend } from '../../src/network/index.ts';
import { type LoadedProfile, loadProfile, parseProfile } from '../../src/profile/load.ts';
import { runProfile } from '../../src/run/run-profile.ts';
import { expectPassed, expectVerdict, failing, shippedProfile } from '../helpers/run.ts';

const T = 120_000;
const pairing = (name: string) => PAIRINGS.find((p) => p.name === name)!;

function run(
  loaded: LoadedProfile,
  pairingName: string,
  options: { policy?: PolicyName; connection?: ClientPolicy['connection'] } = {},
) {
  return runProfile(loaded, {
    ...options,
    pairing: pairing(pairingName),
    signal: new AbortController().signal,
    network: (s, onDecision) => createNetworkBackend('embedded', { seed: s, onDecision }),
  });
}

describe.concurrent('mcp-header-strip (modern)', () => {
  const loaded = () => loadProfile(shippedProfile('mcp-header-strip'));

  it('none control: a refused call is not retried, so tampered ops fail', { timeout: T }, async () => {
    const r = await run(loaded(), 'modern', { policy: 'none' });
    expect(r.report.metrics.opsFail).toBeGreaterThan(0);
    expectPassed(r.report);
  });

  it('detector control: an Mcp-Param-* header the server does not check is rewritten and the call runs anyway', {
    timeout: T,
  }, async () => {
    // The reference tools declare no x-mcp-header parameter, so SDK 2.4's server has nothing to compare
    // Mcp-Param-Query with: a gateway routing on it and the server disagree, and the call is dispatched.
    const file = shippedProfile('mcp-header-strip');
    const text = readFileSync(file, 'utf8')
      .replace(/header: Mcp-Name\n(\s+)value: null/, 'header: Mcp-Param-Query\n$1value: forged')
      .replace(/header: Mcp-Method\n(\s+)value: tools\/list/, 'header: Mcp-Param-Query\n$1value: forged');
    expect(text).not.toContain('Mcp-Name\n');
    const r = await run(parseProfile(file, text), 'modern');
    expect(r.report.metrics.headerTampered).toBeGreaterThan(0);
    expect(r.report.metrics.headerMismatchExecuted).toBeGreaterThan(0);
    expect(r.report.thresholds.find((t) => t.expr === 'header_mismatch_executed == 0')?.ok).toBe(false);
  });
});

describe.concurrent('discover-faults', () => {
  const loaded = () => loadProfile(shippedProfile('discover-faults'));

  it('detector control (auto): with the bare-400 guard off, the SDK falls back to 2025-11-25', {
    timeout: T,
  }, async () => {
    const r = await run(loaded(), 'auto', { connection: { reprobeBareFallback: false } });
    expect(r.report.metrics.wrongFallbacks).toBeGreaterThan(0);
    expect((r.history.discovery ?? []).some((c) => c.negotiated === '2025-11-25')).toBe(true);
    expect(r.report.thresholds.find((t) => t.expr === 'wrong_fallbacks == 0')?.ok).toBe(false);
  });

  it('modern (pinned), resilient: the same faults, every op ends ok', { timeout: T }, async () => {
    const r = await run(loaded(), 'modern');
    expect(failing(r)).toBe('');
    expect(r.report.metrics.discoveryFailedProbes).toBeGreaterThan(0);
  });

  it('none control: no retry and no reconnect, so ops fail and the probe faults never meet a probe (inert)', {
    timeout: T,
  }, async () => {
    const r = await run(loaded(), 'auto', { policy: 'none' });
    expect(r.report.metrics.opsFail).toBeGreaterThan(0);
    // Only the set-up connect probed: a client that never reconnects never meets a discovery fault.
    expect(r.report.metrics.discoveryProbes).toBe(1);
    expect(inertWindows(r.report.metrics.faultWindows).length).toBeGreaterThan(0);
    expectVerdict(r.report, 'inert');
  });
});
