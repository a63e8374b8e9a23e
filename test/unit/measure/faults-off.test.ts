// The faults-off control's reading: a profile's faults matter when a threshold fails without them; a pass is a
// defect; a missed time bound the machine's delay explains (inconclusive) leaves it undecided.
import { describe, expect, it } from 'vitest';
import { faultsMatter, faultsOffVerdict } from '../../../src/measure/faults-off.ts';
import type { ProfileReport, Verdict } from '../../../src/measure/run-report.ts';
import type { ThresholdResult } from '../../../src/measure/thresholds.ts';

const threshold = (ok: boolean, na?: true, status?: ThresholdResult['status']): ThresholdResult => ({
  expr: 'recovery_ms <= 1000',
  metric: 'recovery_ms',
  op: '<=',
  target: 1000,
  actual: na ? null : 1,
  ok,
  status: status ?? (ok ? 'pass' : na ? 'na-fail' : 'fail'),
  ...(na && { na }),
});
const explainedByLoad = threshold(false, undefined, 'inconclusive');
const profile = (verdict: Verdict, thresholds: ThresholdResult[], error?: string) =>
  ({ verdict, thresholds, ...(error && { error }) }) as Pick<ProfileReport, 'verdict' | 'thresholds' | 'error'>;

describe('faults-off control', () => {
  it('says the faults matter when a threshold failed without them, and not when all held or the run broke', () => {
    expect(faultsMatter(profile('fail', [threshold(true), threshold(false)]))).toBe(true);
    expect(faultsMatter(profile('pass', [threshold(true)]))).toBe(false);
    expect(faultsMatter(profile('fail', [threshold(false)], 'target crashed'))).toBe(false);
    expect(faultsMatter(profile('fail', [threshold(true)]))).toBe(false);
  });

  it('does not count a missed time bound the machine delay explains, and counts a fail or n/a beside it', () => {
    expect(faultsMatter(profile('inconclusive', [explainedByLoad]))).toBe(false);
    expect(faultsMatter(profile('fail', [explainedByLoad, threshold(false, true)]))).toBe(true);
  });

  it('passes a run only when every profile failed without its faults', () => {
    const matters = profile('fail', [threshold(false)]);
    const defect = profile('pass', [threshold(true)]);
    const undecided = profile('inconclusive', [threshold(true), explainedByLoad]);
    expect(faultsOffVerdict({ profiles: [matters, matters] as ProfileReport[] })).toBe('pass');
    expect(faultsOffVerdict({ profiles: [matters, defect, undecided] as ProfileReport[] })).toBe('fail');
    expect(faultsOffVerdict({ profiles: [matters, undecided] as ProfileReport[] })).toBe('inconclusive');
    expect(faultsOffVerdict({ profiles: [matters, profile('interrupted', [])] as ProfileReport[] })).toBe(
      'interrupted',
    );
  });
});
