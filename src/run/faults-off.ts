// The faults-off control: a profile with its `faults:` removed and everything else as written (seed, workload,
// client, target, thresholds). `faultline run --faults off` runs it instead of each profile, to show that a
// profile's thresholds need its faults; a relative threshold (`x control`) has it run right before the profile,
// for its bound.
import { parseThreshold } from '../measure/thresholds.ts';
import type { LoadedProfile } from '../profile/load.ts';
import type { Profile } from '../profile/schema.ts';
import { thresholdsFor } from './judging.ts';

export function withoutFaults(loaded: LoadedProfile): LoadedProfile {
  return { ...loaded, profile: { ...loaded.profile, faults: [] } };
}

export function hasFaults(profile: Profile): boolean {
  return profile.faults.length > 0;
}

/** The thresholds the policy is judged by bind some time to the faults-off control. */
export function hasRelativeThresholds(profile: Profile, policy: string): boolean {
  return thresholdsFor(profile, policy).some((expr) => parseThreshold(expr).relative === true);
}
