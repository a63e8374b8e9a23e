// What a profile's report is judged by: the thresholds for the policy that ran (a negative-control policy has its
// own, from `controls`) and the metric options the profile sets. A single run and a merge of shards judge alike.
import { CANARY_MARKERS } from '../../mocks/canaries.ts';
import type { Judging } from '../measure/merge.ts';
import type { MetricsOptions } from '../measure/options.ts';
import type { ShardProfile } from '../measure/shard-format.ts';
import { parseProfile } from '../profile/load.ts';
import type { Profile } from '../profile/schema.ts';

export function thresholdsFor(profile: Profile, policy: string): readonly string[] {
  const control = profile.controls[policy as keyof Profile['controls']];
  return policy !== profile.client.policy && control ? control : profile.expect;
}

export function metricsOptionsFor(profile: Profile): MetricsOptions {
  return {
    recovery: {
      windowMs: profile.steadyState.windowMs,
      minOps: profile.steadyState.minOps,
      targetSuccessRate: profile.steadyState.level,
    },
    canaries: CANARY_MARKERS,
  };
}

/** How a shard's profile is judged: by the profile text the shard carried, not whatever the file says today. */
export function judgingOf(p: ShardProfile): Judging {
  const { profile } = parseProfile(p.file, p.profileSource);
  return {
    description: profile.description,
    expect: thresholdsFor(profile, p.policy),
    metricsOptions: metricsOptionsFor(profile),
    // A profile with no faults is its own faults-off control (run/faults-off.ts).
    ...(profile.faults.length === 0 && { ownControl: true }),
  };
}
