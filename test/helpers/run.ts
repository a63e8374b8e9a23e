// Runs one shipped profile in-process on the embedded Toxiproxy, as `faultline run` would.
import { fileURLToPath } from 'node:url';
import type { PolicyName } from '../../src/client/policies/index.ts';
import type { Pairing } from '../../src/core/pairing.ts';
import { createNetworkBackend } from '../../src/network/index.ts';
import { loadProfile } from '../../src/profile/load.ts';
import { type ProfileResult, runProfile } from '../../src/run/run-profile.ts';

export function shippedProfile(name: string): string {
  return fileURLToPath(new URL(`../../chaos-profiles/${name}.yaml`, import.meta.url));
}

export async function runShipped(
  name: string,
  policy?: PolicyName,
  seed?: number,
  pairing?: Pairing,
): Promise<ProfileResult> {
  return runProfile(loadProfile(shippedProfile(name)), {
    policy,
    seed,
    pairing,
    signal: new AbortController().signal,
    network: (s, onDecision) => createNetworkBackend('embedded', { seed: s, onDecision }),
  });
}

/** The failing thresholds, readable in an assertion message. */
export function failing(result: ProfileResult): string {
  return result.report.thresholds
    .filter((t) => !t.ok)
    .map((t) => `${t.expr} (actual ${t.actual})`)
    .join('; ');
}
