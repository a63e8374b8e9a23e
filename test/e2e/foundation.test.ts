// Issue 2's acceptance: the shipped dependency profiles pass with the resilient client and the naive control
// shows the duplicates that the ledger catches.
import { describe, expect, it } from 'vitest';
import { expectPassed, failing, runShipped } from '../helpers/run.ts';

describe('baseline', () => {
  it('is healthy: every op ok on the first attempt, effects exactly once', async () => {
    const r = await runShipped('baseline');
    expect(failing(r)).toBe('');
    const m = r.report.metrics;
    expect(m.ops).toBe(100); // the plan's: 25 ops/s for 4 s, every one run whatever the machine
    expect(m.opsOk).toBe(m.ops);
    // Every side-effecting op left exactly one effect in the ledger.
    const writes = r.history.ops!.filter((o) => o.sideEffecting).length;
    expect(r.history.effects).toHaveLength(writes);
  });
});

describe.each(['dependency-5xx', 'dependency-timeout'])('%s', (name) => {
  it('passes with the resilient client: no duplicate, ghost or lost effects', async () => {
    const r = await runShipped(name, 'resilient');
    expect(failing(r)).toBe('');
    const m = r.report.metrics;
    expect(m.retriedOps).toBeGreaterThan(0); // the fault really hit ops
    expect(m.duplicateEffects).toBe(0);
    expectPassed(r.report);
  });

  it('negative control: the naive client double-charges and the ledger catches it', async () => {
    const r = await runShipped(name, 'naive');
    expect(r.report.metrics.duplicateEffects).toBeGreaterThan(0);
    expectPassed(r.report); // controls.naive: duplicate_effects > 0
  });
});
