// Runs one shipped profile in-process on the embedded Toxiproxy, as `faultline run` would.
import { appendFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import type { PolicyName } from '../../src/client/policies/index.ts';
import type { Pairing } from '../../src/core/pairing.ts';
import { marginOutgrows } from '../../src/measure/calibration.ts';
import { inertWindows } from '../../src/measure/fault-windows.ts';
import type { ProfileReport, Verdict } from '../../src/measure/run-report.ts';
import { createNetworkBackend } from '../../src/network/index.ts';
import { loadProfile } from '../../src/profile/load.ts';
import { runWithControl } from '../../src/run/faults-off.ts';
import type { ProfileResult } from '../../src/run/run-profile.ts';

export function shippedProfile(name: string): string {
  return fileURLToPath(new URL(`../../chaos-profiles/${name}.yaml`, import.meta.url));
}

export async function runShipped(
  name: string,
  policy?: PolicyName,
  seed?: number,
  pairing?: Pairing,
): Promise<ProfileResult> {
  return runWithControl(loadProfile(shippedProfile(name)), {
    policy,
    seed,
    pairing,
    signal: new AbortController().signal,
    network: (s, onDecision) => createNetworkBackend('embedded', { seed: s, onDecision }),
  });
}

/**
 * The failing thresholds, readable in an assertion message; none when the verdict is inconclusive because the
 * machine was too loaded for the run's timing (the start-up calibration, or the stalls watched during the run, said
 * so): a product that says "inconclusive, not a regression" is not contradicted by its tests. On a machine that
 * held up, every threshold is checked (and a verdict that outranks the load, an unmeasurable threshold, still
 * shows its failures).
 */
export function failing(result: { report: ProfileReport }): string {
  const { report } = result;
  const loaded = tooLoaded(report);
  if (loaded && report.verdict === 'inconclusive' && report.verdictReason === loaded) {
    noteExcused(loaded);
    return '';
  }
  return report.thresholds
    .filter((t) => !t.ok)
    .map((t) => `${t.expr} (actual ${t.actual})`)
    .join('; ');
}

/**
 * A test whose thresholds were not checked because the machine was too loaded, one line in the file that
 * FAULTLINE_EXCUSED_LOG names (bench/stability.ts counts them: an excused test is inconclusive, not passed).
 */
function noteExcused(reason: string): void {
  const log = process.env.FAULTLINE_EXCUSED_LOG;
  const { testPath, currentTestName } = expect.getState();
  if (log) appendFileSync(log, `${testPath}\t${currentTestName}\t${reason.replace(/\s+/g, ' ')}\n`);
}

/** Why the machine was too loaded for this profile's timing, if it was (the verdict's own rule). */
function tooLoaded(report: ProfileReport): string | undefined {
  const c = report.calibration;
  return c && (c.tooLoaded ?? marginOutgrows(c, report.thresholds));
}

/**
 * The run's verdict is `expected`, or inconclusive when the start-up calibration (measured before the workload)
 * found this machine too loaded for the profile's timing: the verdict's own rule (src/measure/verdict.ts), which
 * outranks inert and a threshold's fail, and which a busy CI runner meets.
 */
export function expectVerdict(report: ProfileReport, expected: Verdict, reason?: string): void {
  const loaded = tooLoaded(report);
  expect({ verdict: report.verdict, reason: report.verdictReason }).toMatchObject(
    loaded
      ? { verdict: 'inconclusive', reason: loaded }
      : { verdict: expected, ...(reason !== undefined && { reason }) },
  );
}

/**
 * A run that should pass: every threshold holds and every fault window hit, and the verdict is pass; or, on a
 * machine too loaded for the profile's timing, the verdict is inconclusive with that reason (see failing). A
 * detector that stops firing on a machine that held up fails here.
 */
export function expectPassed(report: ProfileReport): void {
  expect(failing({ report })).toBe('');
  if (!tooLoaded(report)) expect(inertWindows(report.metrics.faultWindows).map((w) => w.fault)).toEqual([]);
  expectVerdict(report, 'pass');
}
