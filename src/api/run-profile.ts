// runProfile: one profile end to end, as `faultline run` does it, from code.
import type { PolicyName } from '../core/policy-names.ts';
import { createNetworkBackend, type NetworkBackendSpec } from '../network/factory.ts';
import { loadProfile } from '../profile/load.ts';
import { type ProfileResult, runProfile as runLoadedProfile } from '../run/run-profile.ts';
import { type DefinedProfile, defineProfile, type ProfileInput } from './define-profile.ts';

export type { ProfileResult } from '../run/run-profile.ts';

export interface RunProfileOptions {
  /** Overrides the profile's seed (the same seed replays the same faults at the same moments). */
  seed?: number;
  /** Overrides the profile's client policy (naive and none are the negative controls). */
  policy?: PolicyName;
  /** Network backend: `embedded` (default), `container`, or the URL of a Toxiproxy API. */
  toxiproxy?: NetworkBackendSpec;
  /** Allow a Toxiproxy API or url target outside 127.0.0.0/8 and ::1. */
  allowNonLoopback?: boolean;
  /** Stops the run early; the environment is torn down all the same. */
  signal?: AbortSignal;
  /** Called after each op with the number of ops done. */
  onProgress?: (opsDone: number) => void;
}

/** A profile file (YAML), a profile written in code, or one defineProfile already checked. */
export type ProfileSource = string | ProfileInput | DefinedProfile;

/** The profile a source means, checked. */
export function resolveProfile(source: ProfileSource): DefinedProfile {
  if (typeof source === 'string') return loadProfile(source);
  if ('profile' in source && 'file' in source) return source as DefinedProfile;
  return defineProfile(source as ProfileInput);
}

/**
 * Runs one profile: starts the server under test and the network backend, plays the faults on their timeline
 * while the workload runs, reads the ledger, measures and judges, and tears everything down whatever happens.
 *
 * @returns `report`: the same object as the profile's entry in report.json (verdict, metrics, thresholds,
 *   seed, decision log hash); `history`: every op, attempt, fault window and effect the metrics came from.
 *
 * @example
 * ```ts
 * const { report } = await runProfile('chaos-profiles/dependency-5xx.yaml', { seed: 7 });
 * if (report.verdict !== 'pass') console.log(report.thresholds.filter((t) => !t.ok));
 * ```
 */
export async function runProfile(source: ProfileSource, options: RunProfileOptions = {}): Promise<ProfileResult> {
  const loaded = resolveProfile(source);
  const allowNonLoopback = options.allowNonLoopback === true;
  return runLoadedProfile(loaded, {
    network: (seed, onDecision) =>
      createNetworkBackend(options.toxiproxy ?? 'embedded', { seed, onDecision, allowNonLoopback }),
    seed: options.seed,
    policy: options.policy,
    signal: options.signal ?? new AbortController().signal,
    onProgress: options.onProgress,
    allowNonLoopback,
  });
}
