// How many ops an open-model profile starts: a function of the profile alone, so its checks and the plan agree.
import type { Profile } from './schema.ts';

/** Number of ops an open-model profile starts within its duration. */
export function openModelOpCount(profile: Profile): number {
  return profile.workload.rate ? Math.ceil((profile.duration * profile.workload.rate) / 1000) : 0;
}
