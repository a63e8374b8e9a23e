// A Ctrl-C that kills a server child as it is spawned (the child is still in this process group for a moment after
// the fork) makes the set-up fail before this process has handled the same signal: that set-up ends interrupted,
// with reports, not in an internal error. The failure here is the network's start; the stop comes after it, as the
// signal's handler would. Controls: a failure with no stop is thrown as it is; a stop before the failure was
// already reported interrupted.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SIGNAL_HANDLING_GRACE_MS } from '../../../src/core/signal-grace.ts';
import { loadProfile } from '../../../src/profile/load.ts';
import { runSuite } from '../../../src/run/run-suite.ts';
import { REPO } from '../../helpers/cli.ts';

const profile = loadProfile(join(REPO, 'chaos-profiles/baseline.yaml'));
const EPIPE = new Error("Not connected: the server's stdin is closed (EPIPE)");

/** A suite of one profile whose set-up fails; `stop` runs as it fails (to abort the run then, later or never). */
function failingSuite(stop: (controller: AbortController) => void) {
  const controller = new AbortController();
  return runSuite([profile], {
    network: async () => {
      stop(controller);
      throw EPIPE;
    },
    signal: controller.signal,
    say: () => undefined,
  });
}

describe('a set-up failure that comes with a stop', () => {
  it('the stop handled just after the failure: the profile is interrupted, not an error', async () => {
    const { run } = await failingSuite((c) => setTimeout(() => c.abort(), 20));
    expect(run.profiles.map((p) => [p.name, p.verdict])).toEqual([['baseline', 'interrupted']]);
  });

  it('the stop before the failure: interrupted too', async () => {
    const { run } = await failingSuite((c) => c.abort());
    expect(run.profiles.map((p) => [p.name, p.verdict])).toEqual([['baseline', 'interrupted']]);
  });

  it('negative control: no stop, the failure is thrown as it is, after the grace', async () => {
    const started = performance.now();
    await expect(failingSuite(() => undefined)).rejects.toBe(EPIPE);
    // A lower bound only: the failure waited for a signal that might be on its way.
    expect(performance.now() - started).toBeGreaterThanOrEqual(SIGNAL_HANDLING_GRACE_MS - 5);
  });
});
