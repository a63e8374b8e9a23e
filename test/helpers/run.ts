// Runs one shipped profile in-process on the embedded Toxiproxy, as `faultline run` would.
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import type { PolicyName } from '../../src/client/policies/index.ts';
import type { Pairing } from '../../src/core/pairing.ts';
import { inertWindows } from '../../src/measure/fault-windows.ts';
import type { ProfileReport, Verdict } from '../../src/measure/run-report.ts';
import { isTimeUpperBound } from '../../src/measure/thresholds.ts';
import { createNetworkBackend } from '../../src/network/index.ts';
import { type LoadedProfile, loadProfile } from '../../src/profile/load.ts';
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
  /** Changes to the loaded profile before it runs (a variant of a shipped profile). */
  edit?: (profile: LoadedProfile['profile']) => void,
): Promise<ProfileResult> {
  const loaded = loadProfile(shippedProfile(name));
  edit?.(loaded.profile);
  return runWithControl(loaded, {
    policy,
    seed,
    pairing,
    signal: new AbortController().signal,
    network: (s, onDecision) => createNetworkBackend('embedded', { seed: s, onDecision }),
  });
}

/**
 * What a test may assert on any machine, busy or quiet: every threshold but a time upper bound that was measured
 * (counts, rates of counts, effects, hits, lower bounds, n/a) holds. A time upper bound is only required to have a
 * value (the bound is present and measured); whether it held is the product's judgement of this machine's timing,
 * not a fact a test can rely on. Returns the thresholds that break that, readable in an assertion message.
 */
export function failing(result: { report: ProfileReport }): string {
  return result.report.thresholds
    .filter((t) => !t.ok && !(isTimeUpperBound(t) && t.actual !== null))
    .map((t) => `${t.expr} (actual ${t.actual}${t.reason ? `: ${t.reason}` : ''})`)
    .join('; ');
}

/** The time upper bounds that were missed, by name: on a busy machine these may be inconclusive (or fail). */
function missedTimeBounds(report: ProfileReport): string[] {
  return report.thresholds.filter((t) => !t.ok && isTimeUpperBound(t) && t.actual !== null).map((t) => t.expr);
}

/**
 * The run's verdict is `expected`. A pass is only softened by a time upper bound that this machine's timing missed
 * (named in the assertion): then the verdict is the one the product gives that bound, and every count still holds
 * (failing() is empty). Fail, inert and the reasons of either are expected exactly, on any machine.
 */
export function expectVerdict(report: ProfileReport, expected: Verdict, reason?: string): void {
  const missed = missedTimeBounds(report);
  if (expected === 'pass' && missed.length > 0) {
    expect(failing({ report }), `missed time bounds: ${missed.join(', ')}`).toBe('');
    expect(['inconclusive', 'fail']).toContain(report.verdict);
    return;
  }
  expect({ verdict: report.verdict, reason: report.verdictReason }).toMatchObject({
    verdict: expected,
    ...(reason !== undefined && { reason }),
  });
}

/** A run that should pass: every count threshold holds, every time bound is measured, and every fault window hit. */
export function expectPassed(report: ProfileReport): void {
  expect(failing({ report })).toBe('');
  expect(inertWindows(report.metrics.faultWindows).map((w) => w.fault)).toEqual([]);
  expectVerdict(report, 'pass');
}
