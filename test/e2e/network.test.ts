// Issue 3's profiles on the network seam: each control shows what the fault does without the resilience the
// resilient client brings (its runs are the default suite's: suite-checks/network.ts).
import { describe, expect, it } from 'vitest';
import { failing, runShipped } from '../helpers/run.ts';

const PROFILES = [
  { name: 'network-latency', control: 'naive' as const },
  { name: 'network-reset', control: 'naive' as const },
  { name: 'sse-cut', control: 'naive' as const },
  { name: 'sse-cut-no-store', control: 'none' as const },
];

describe.concurrent.each(PROFILES)('$name', ({ name, control }) => {
  it(`control (${control}) shows the damage`, async () => {
    const r = await runShipped(name, control);
    expect(failing(r)).toBe('');
    if (control === 'naive') expect(r.report.metrics.duplicateEffects).toBeGreaterThan(0);
    else expect(r.report.metrics.opsInfo).toBeGreaterThan(0);
    if (name === 'network-reset') {
      // Issue 28 item 1's replay accounting on the same run: its payments replayed with fresh keys are unsafe;
      // replays of the read-only search are safe whatever the key, so fewer unsafe than replays after unknown.
      expect(r.report.metrics.unsafeReplays).toBeGreaterThan(0);
      expect(r.report.metrics.unsafeReplays).toBeLessThanOrEqual(r.report.metrics.replaysAfterUnknown ?? 0);
    }
  });
});
