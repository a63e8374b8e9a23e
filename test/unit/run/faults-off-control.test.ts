// runWithControl runs a profile's faults-off control first and judges the profile against it: the control's metrics
// bound its relative thresholds, and the control's machine delay goes with them (a relative lower bound missed within
// factor x that delay is inconclusive, measure/thresholds.ts). runProfile is replaced here so the test can give the
// control a known delay and see what the profile's run is handed.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ProfileResult, RunOptions } from '../../../src/run/run-profile.ts';

const calls: RunOptions[] = [];
let controlCalibration: { marginMs: number; referenceP95Ms: number } | undefined;

vi.mock('../../../src/run/run-profile.ts', () => ({
  runProfile: async (_loaded: unknown, options: RunOptions): Promise<Partial<ProfileResult>> => {
    calls.push(options);
    return {
      report: {
        metrics: { ops: calls.length },
        ...(calls.length === 1 && controlCalibration && { calibration: controlCalibration }),
        notes: [],
        verdict: 'pass',
        durationMs: 1000,
      } as unknown as ProfileResult['report'],
    };
  },
}));

const { runWithControl } = await import('../../../src/run/faults-off.ts');
const { loadProfile } = await import('../../../src/profile/load.ts');
const { shippedProfile } = await import('../../helpers/run.ts');

const options = (): RunOptions => ({ signal: new AbortController().signal }) as RunOptions;

describe('runWithControl: the control first, then the profile judged against it', () => {
  beforeEach(() => {
    calls.length = 0;
    controlCalibration = undefined;
  });

  it("hands the profile's run the control's metrics and its machine delay", async () => {
    controlCalibration = { marginMs: 48, referenceP95Ms: 5 };
    await runWithControl(loadProfile(shippedProfile('network-latency')), options());
    expect(calls).toHaveLength(2);
    expect(calls[0].control).toBeUndefined();
    expect(calls[1]).toMatchObject({ control: { ops: 1 }, controlDelayMs: 48 });
  });

  it('hands a delay of 0 when the control measured none (a quiet machine)', async () => {
    await runWithControl(loadProfile(shippedProfile('network-latency')), options());
    expect(calls[1]).toMatchObject({ control: { ops: 1 }, controlDelayMs: 0 });
  });

  it('runs a profile without relative thresholds once, with no control', async () => {
    await runWithControl(loadProfile(shippedProfile('baseline')), options());
    expect(calls).toHaveLength(1);
    expect(calls[0].control).toBeUndefined();
    expect(calls[0].controlDelayMs).toBeUndefined();
  });
});
