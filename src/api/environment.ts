// startEnvironment: the running system one profile describes, for tests that drive it themselves.

import type { NetworkBackend } from '../network/backend.ts';
import { createNetworkBackend, type NetworkBackendSpec } from '../network/factory.ts';
import { type Environment, startEnvironment as startProfileEnvironment } from '../run/environment.ts';
import { type ProfileSource, resolveProfile } from './run-profile.ts';

export interface StartEnvironmentOptions {
  /** Seed of every draw (dependency faults, toxics); default the profile's seed. */
  seed?: number;
  /** Network backend: `embedded` (default), `container`, or the URL of a Toxiproxy API. */
  toxiproxy?: NetworkBackendSpec;
  /** Allow a Toxiproxy API or url target outside 127.0.0.0/8 and ::1. */
  allowNonLoopback?: boolean;
}

/** The server under test, the MCP link through a Toxiproxy proxy and a client session; close() ends all of it. */
export interface FaultlineEnvironment extends Environment {
  /** The network backend the MCP link runs through. */
  backend: NetworkBackend;
  seed: number;
}

/**
 * Starts the profile's target (the reference server in its own process, the reference server over stdio, or a
 * server at a URL), a network backend with a proxy on the MCP link, and a client session. The profile's faults
 * and workload are not run: apply faults with {@link withFault} and call tools with {@link createClient}.
 *
 * @example
 * ```ts
 * const env = await startEnvironment(profile);
 * try {
 *   await withFault(env, { seam: 'network', kind: 'latency', latency: 200 }, async () => {
 *     await createClient({ session: env.session }).call('search_documents', { query: 'invoice' });
 *   });
 * } finally {
 *   await env.close();
 * }
 * ```
 */
export async function startEnvironment(
  source: ProfileSource,
  options: StartEnvironmentOptions = {},
): Promise<FaultlineEnvironment> {
  const { profile } = resolveProfile(source);
  const seed = options.seed ?? profile.seed;
  const allowNonLoopback = options.allowNonLoopback === true;
  const backend = await createNetworkBackend(options.toxiproxy ?? 'embedded', { seed, allowNonLoopback });
  const env = await startProfileEnvironment(profile, seed, backend, { allowNonLoopback }).catch(async (error) => {
    await backend.close();
    throw error;
  });
  return {
    ...env,
    backend,
    seed,
    close: async () => {
      await env.close();
      await backend.close();
    },
  };
}
