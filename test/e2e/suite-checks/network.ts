// Issue 3's profiles on the network seam, the resilient half: each passes with the resilient client on the embedded
// Toxiproxy. network.test.ts runs the controls, which show what each fault does without that resilience.
import { expect, it } from 'vitest';
import { failing } from '../../helpers/run.ts';
import type { ShippedRun } from './shipped-run.ts';

const NETWORK_PROFILES = ['network-latency', 'network-reset', 'sse-cut', 'sse-cut-no-store'];

export function networkChecks(shipped: ShippedRun): void {
  it.each(NETWORK_PROFILES)('%s: passes with the resilient client', (name) => {
    const r = shipped(name);
    expect(failing(r)).toBe('');
    expect(r.report.metrics.retriedOps).toBeGreaterThan(0); // the toxic really hit ops on the wire
    expect(r.report.metrics.duplicateEffects).toBe(0);
    // The fault windows were applied and removed through the Toxiproxy API.
    expect(r.history.faults.every((f) => f.offMs !== undefined && f.offMs > f.onMs)).toBe(true);
  });

  // Issue 28 item 1's replay accounting on the same run (replay-accounting.test.ts runs the naive side).
  it('network-reset: connection resets leave outcomes unknown; its replays happen, all with the honoured key (0 unsafe)', () => {
    const r = shipped('network-reset');
    const m = r.report.metrics;
    expect(m.replaysAfterUnknown).toBeGreaterThan(0);
    expect(m.unsafeReplays).toBe(0);
    expect(m.unsafeReplayDuplicates).toBe(0);
  });
}
