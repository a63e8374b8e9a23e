// Everything a profile run brings up, taken down in one place whatever happened: each part is set as it comes up,
// and the tear-down takes down the parts that exist, in the reverse of the order they came up. Every step runs even
// when one before it fails (a server that will not close must not leave the proxy and the temporary directory
// behind); the first failure is thrown once all have run.

export interface RunParts {
  removeWorkdir?: () => void;
  backend?: { close(): Promise<void> };
  env?: { close(): Promise<void> };
  userClient?: { close(): Promise<void> };
  driver?: { clear(): Promise<unknown> };
  sampler?: { finish(): Promise<void> };
  listener?: { stop(): Promise<unknown> };
  harnessLag?: { stop(): unknown };
}

/** The steps in the order they run: the last part up is the first down. */
const STEPS: ((parts: RunParts) => unknown)[] = [
  (p) => p.harnessLag?.stop(),
  // A fault that will not come off is the run's to report, not the tear-down's: the rest still comes down.
  (p) => p.driver?.clear().catch(() => {}),
  (p) => p.sampler?.finish(),
  (p) => p.listener?.stop(),
  (p) => p.userClient?.close(),
  (p) => p.env?.close(),
  (p) => p.backend?.close(),
  (p) => p.removeWorkdir?.(),
];

async function tearDown(parts: RunParts): Promise<void> {
  let failed: { error: unknown } | undefined;
  for (const step of STEPS) {
    try {
      await step(parts);
    } catch (error) {
      failed ??= { error };
    }
  }
  if (failed) throw failed.error;
}

/** Runs the stages with the parts they bring up, and tears those parts down whether the stages end or throw. */
export async function withTeardown<T>(stages: (parts: RunParts) => Promise<T>): Promise<T> {
  const parts: RunParts = {};
  try {
    return await stages(parts);
  } finally {
    await tearDown(parts);
  }
}
