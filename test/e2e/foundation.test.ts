// Issue 2's acceptance, the control half: the naive control shows the duplicates that the ledger catches (the
// resilient runs are the default suite's: suite-checks/foundation.ts).
import { describe, expect, it } from 'vitest';
import { expectPassed, runShipped } from '../helpers/run.ts';

describe.each(['dependency-5xx', 'dependency-timeout'])('%s', (name) => {
  it('negative control: the naive client double-charges and the ledger catches it', async () => {
    const r = await runShipped(name, 'naive');
    expect(r.report.metrics.duplicateEffects).toBeGreaterThan(0);
    expectPassed(r.report); // controls.naive: duplicate_effects > 0
  });
});
