// The faults-off control: a profile with its `faults:` removed and everything else as written (seed, workload,
// client, target, thresholds). `faultline run --faults off` runs it instead of each profile, to show that a
// profile's thresholds need its faults; a relative threshold (`x control`) has it run right before the profile,
// for its bound.
import { needsLinkProxy } from '../faults/kind.ts';
import { machineDelayMs } from '../measure/calibration.ts';
import { parseThreshold } from '../measure/thresholds.ts';
import type { LoadedProfile } from '../profile/load.ts';
import type { Profile } from '../profile/schema.ts';
import { thresholdsFor } from './judging.ts';
import { type ProfileResult, type RunOptions, runProfile } from './run-profile.ts';

export function withoutFaults(loaded: LoadedProfile): LoadedProfile {
  return { ...loaded, ...sameLink(loaded), profile: { ...loaded.profile, faults: [] } };
}

/** A control keeps its profile's MCP link: through a proxy when the profile puts faults on it. */
export function sameLink(loaded: LoadedProfile): Pick<LoadedProfile, 'proxiedLink'> {
  return needsLinkProxy(loaded.profile.faults) ? { proxiedLink: true } : {};
}

export function hasFaults(profile: Profile): boolean {
  return profile.faults.length > 0;
}

/** The thresholds the policy is judged by bind some time to the faults-off control. */
function hasRelativeThresholds(profile: Profile, policy: string): boolean {
  return thresholdsFor(profile, policy).some((expr) => parseThreshold(expr).relative === true);
}

/** runWithControl runs this profile twice: its faults-off control, then the profile. */
export function runsControlFirst(profile: Profile, policy: string): boolean {
  return hasFaults(profile) && hasRelativeThresholds(profile, policy);
}

/**
 * A profile whose thresholds bind a time to the faults-off control: that control first (same seed, workload, client
 * and target, faults removed), then the profile judged against it. A profile without faults is its own control;
 * any other runs as it is. How `faultline run` runs each profile.
 */
export async function runWithControl(
  loaded: LoadedProfile,
  options: RunOptions,
  say: (line: string) => void = () => {},
): Promise<ProfileResult> {
  const { profile } = loaded;
  if (!hasRelativeThresholds(profile, options.policy ?? profile.client.policy)) return runProfile(loaded, options);
  if (!hasFaults(profile)) return runProfile(loaded, { ...options, control: 'self' });
  say(`      faults-off control of ${profile.name} first (its relative thresholds are bound by it) ...`);
  const controlRun = await runProfile(withoutFaults(loaded), options);
  const control = controlRun.report;
  // The control ran on this machine a moment before, but the machine may have been busier then or since: a bound is
  // judged with the run's machine delay (an upper bound) or the control's (a lower bound, which the control's
  // load raised), and a machine that looked loaded during the control is said beside them.
  const result = await runProfile(loaded, {
    ...options,
    control: control.metrics,
    controlDelayMs: machineDelayMs(control.calibration),
  });
  const loadedControl = control.calibration?.tooLoaded;
  if (loadedControl) result.report.notes.push(`machine load during the faults-off control: ${loadedControl}`);
  const ran = `${control.metrics.ops} ops in ${((control.durationMs ?? 0) / 1000).toFixed(1)}s`;
  result.report.notes.push(
    `the faults-off control ran first (same seed, faults removed): ${ran}, verdict ${control.verdict}${control.verdictReason ? ` (${control.verdictReason})` : ''}`,
  );
  const calibration = control.calibration;
  return { ...result, control: { history: controlRun.history, ...(calibration && { calibration }) } };
}
