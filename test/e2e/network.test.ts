// Issue 3's profiles on the network seam: each passes with the resilient client on the embedded Toxiproxy,
// and its control shows what the fault does without that resilience.
import { describe, expect, it } from 'vitest';
import { failing, runShipped } from '../helpers/run.ts';

const PROFILES = [
  { name: 'network-latency', control: 'naive' as const },
  { name: 'network-reset', control: 'naive' as const },
  { name: 'sse-cut', control: 'naive' as const },
  { name: 'sse-cut-no-store', control: 'none' as const },
];

describe.each(PROFILES)('$name', ({ name, control }) => {
  it('passes with the resilient client', async () => {
    const r = await runShipped(name, 'resilient');
    expect(failing(r)).toBe('');
    expect(r.report.metrics.retriedOps).toBeGreaterThan(0); // the toxic really hit ops on the wire
    expect(r.report.metrics.duplicateEffects).toBe(0);
    // The fault windows were applied and removed through the Toxiproxy API.
    expect(r.history.faults.every((f) => f.offMs !== undefined && f.offMs > f.onMs)).toBe(true);
  });

  it(`control (${control}) shows the damage`, async () => {
    const r = await runShipped(name, control);
    expect(failing(r)).toBe('');
    if (control === 'naive') expect(r.report.metrics.duplicateEffects).toBeGreaterThan(0);
    else expect(r.report.metrics.opsInfo).toBeGreaterThan(0);
  });
});
