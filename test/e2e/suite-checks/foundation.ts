// Issue 2's acceptance, the resilient half: the baseline is healthy and the shipped dependency profiles pass with
// the resilient client. foundation.test.ts runs the naive controls, whose duplicates the ledger catches.
import { expect, it } from 'vitest';
import { expectPassed, failing } from '../../helpers/run.ts';
import type { ShippedRun } from './shipped-run.ts';

export function foundationChecks(shipped: ShippedRun): void {
  it('baseline is healthy: every op ok on the first attempt, effects exactly once', () => {
    const r = shipped('baseline');
    expect(failing(r)).toBe('');
    const m = r.report.metrics;
    expect(m.ops).toBe(50); // the plan's: 25 ops/s for 2 s, every one run whatever the machine
    expect(m.opsOk).toBe(m.ops);
    // Every side-effecting op left exactly one effect in the ledger.
    const writes = r.history.ops!.filter((o) => o.sideEffecting).length;
    expect(r.history.effects).toHaveLength(writes);
  });

  it.each(['dependency-5xx', 'dependency-timeout'])(
    '%s passes with the resilient client: no duplicate, ghost or lost effects',
    (name) => {
      const r = shipped(name);
      expect(failing(r)).toBe('');
      const m = r.report.metrics;
      expect(m.retriedOps).toBeGreaterThan(0); // the fault really hit ops
      expect(m.duplicateEffects).toBe(0);
      expectPassed(r.report);
    },
  );
}
