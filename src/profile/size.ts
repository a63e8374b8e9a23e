// How large a run a profile asks for, and the caps beyond which `faultline run` wants --allow-large (profile/caps.ts
// says why they are where they are).

import { LARGE_CAPS } from './caps.ts';
import { openModelOpCount } from './open-model.ts';
import type { Profile } from './schema.ts';

/**
 * A closed-model worker starts its next op when the last one ends; over loopback an op takes well over 10 ms
 * (about 65 ms per op and worker measured on a busy 2-core machine), so this bounds the count from above.
 */
const CLOSED_MODEL_OP_FLOOR_MS = 10;

interface WorkloadSize {
  /** Ops the schedule issues (open model), or an upper bound of them (closed model). */
  ops: number;
  estimated: boolean;
  durationMs: number;
}

function workloadSize(profile: Profile): WorkloadSize {
  const { rate, concurrency, ops } = profile.workload;
  const durationMs = profile.duration;
  if (rate !== undefined) return { ops: openModelOpCount(profile), estimated: false, durationMs };
  if (ops !== undefined) return { ops, estimated: false, durationMs };
  return { ops: Math.ceil(((concurrency ?? 1) * durationMs) / CLOSED_MODEL_OP_FLOOR_MS), estimated: true, durationMs };
}

/** Why a run of this profile needs --allow-large, or undefined when it stays within the caps. */
export function largeProfileProblem(profile: Profile): string | undefined {
  const size = workloadSize(profile);
  if (size.ops > LARGE_CAPS.ops) {
    const how = size.estimated
      ? `up to ${size.ops} ops (concurrency × duration ÷ ${CLOSED_MODEL_OP_FLOOR_MS} ms)`
      : `${size.ops} ops`;
    return `the workload issues ${how}, over the cap of ${LARGE_CAPS.ops}; pass --allow-large to run it anyway`;
  }
  if (size.durationMs > LARGE_CAPS.durationMs) {
    return `the duration ${size.durationMs} ms is over the cap of ${LARGE_CAPS.durationMs} ms (${LARGE_CAPS.durationMs / 60_000} min); pass --allow-large to run it anyway`;
  }
  return undefined;
}
