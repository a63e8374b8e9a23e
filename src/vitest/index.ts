// faultline/vitest: chaos tests inside a vitest suite. `chaosTest` is vitest's `test` with a `faultline` fixture
// that owns everything a test starts and tears it down when the test ends (passed, failed or timed out); the
// matchers are registered on import. Usage:
//
//   import { chaosTest, expect } from 'faultline/vitest';
//   chaosTest('payments survive 503s', async ({ faultline }) => {
//     const run = await faultline.run('chaos-profiles/dependency-5xx.yaml');
//     expect(run).toHaveNoDuplicateEffects();
//   });
import { test as base, expect } from 'vitest';
import { type ClientOptions, type ClientTarget, createClient, type FaultlineClient } from '../api/client.ts';
import { type FaultlineEnvironment, type StartEnvironmentOptions, startEnvironment } from '../api/environment.ts';
import { type ServerHandle, type ServerOptions, startReferenceServer } from '../api/reference-server.ts';
import { type ProfileResult, type ProfileSource, type RunProfileOptions, runProfile } from '../api/run-profile.ts';
import { CHAOS_MATCHERS } from './matchers.ts';
import { Resources } from './resources.ts';

export { CHAOS_MATCHERS, type ReportLike } from './matchers.ts';
export { expect };

expect.extend(CHAOS_MATCHERS);

interface ChaosMatchers<R = unknown> {
  /** No op took effect more than once (duplicate_effects == 0); fails when effects are not observable. */
  toHaveNoDuplicateEffects(): R;
  /** No duplicate, ghost (failed yet took effect) or lost (succeeded, no effect) op. */
  toHaveExactlyOnceEffects(): R;
  /** Every fault window recovered (success rate back to the steady state) within `ms` of its removal. */
  toRecoverWithin(ms: number): R;
  /** Every threshold of the profile held and the verdict is pass (not inert, inconclusive or failed). */
  toMeetThresholds(): R;
  /** Every window of `fault` (window id, kind, or seam/kind) hit something; uncounted hits fail. */
  toHaveHit(fault: string): R;
}

declare module 'vitest' {
  // Matchers is what vitest's Assertion and expect.extend's types build on.
  interface Matchers<T = any> extends ChaosMatchers<T> {}
}

/** What a chaos test gets: starters whose results are torn down when the test ends. */
export interface FaultlineFixture {
  /** Runs a profile (file, object or defineProfile result); aborted if still running when the test ends. */
  run(profile: ProfileSource, options?: RunProfileOptions): Promise<ProfileResult>;
  /** Starts the profile's environment (target, network, session) without running its faults or workload. */
  start(profile: ProfileSource, options?: StartEnvironmentOptions): Promise<FaultlineEnvironment>;
  /** Starts the reference server in its own process. */
  server(options?: Partial<ServerOptions>): Promise<ServerHandle>;
  /** An MCP client with a client policy; its session is closed when the test ends. */
  client(target: ClientTarget, options?: ClientOptions): FaultlineClient;
}

export const chaosTest = base.extend<{ faultline: FaultlineFixture }>({
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from this pattern
  faultline: async ({}, use) => {
    const resources = new Resources();
    const fixture: FaultlineFixture = {
      run: (profile, options = {}) =>
        resources.run((signal) =>
          runProfile(profile, {
            ...options,
            signal: options.signal ? AbortSignal.any([signal, options.signal]) : signal,
          }),
        ),
      start: (profile, options) =>
        resources.adopt(startEnvironment(profile, options), (env) => ({
          close: () => env.close(),
          kill: () => env.server.kill('SIGKILL'),
        })),
      server: (options) =>
        resources.adopt(startReferenceServer(options), (server) => ({
          close: () => server.stop(),
          kill: () => server.kill('SIGKILL'),
        })),
      client: (target, options) => {
        const client = createClient(target, options);
        resources.add({ close: () => client.close(), kill: () => {} });
        return client;
      },
    };
    try {
      await use(fixture);
    } finally {
      await resources.close();
    }
  },
});
