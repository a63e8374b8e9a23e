// A run that fails. A Ctrl-C that kills a server child as it is spawned (the child is still in this process group
// for a moment after the fork) makes the set-up fail before this process has handled the same signal: that run is
// interrupted, not an error. Any other error that is not the user's mistake fails its profile alone, named in the
// report, and the suite goes on; the user's mistake ends the run (the CLI says it in one line, exit 2). The failure
// here is the network's start; the stop, when there is one, comes as the signal's handler would.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ProfileError } from '../../../src/core/profile-error.ts';
import { SIGNAL_HANDLING_GRACE_MS } from '../../../src/core/signal-grace.ts';
import { loadProfile } from '../../../src/profile/load.ts';
import { runReportSchema } from '../../../src/report/report-schema.ts';
import { writeReports } from '../../../src/report/write.ts';
import { runSuite } from '../../../src/run/run-suite.ts';
import { REPO } from '../../helpers/cli.ts';

const baseline = loadProfile(join(REPO, 'chaos-profiles/baseline.yaml'));
const latency = loadProfile(join(REPO, 'chaos-profiles/network-latency.yaml'));
const EPIPE = new Error("Not connected: the server's stdin is closed (EPIPE)");

/** A suite whose every set-up fails with `error`; `stop` runs as it fails (to abort the run then, later or never). */
function failingSuite(error: Error, stop: (controller: AbortController) => void = () => undefined) {
  const controller = new AbortController();
  const said: string[] = [];
  const suite = runSuite([baseline, latency], {
    network: async () => {
      stop(controller);
      throw error;
    },
    signal: controller.signal,
    say: (line) => said.push(line),
  });
  return { suite, said };
}

describe('a set-up failure that comes with a stop', () => {
  it('the stop handled just after the failure: the profile is interrupted, the next one named not run', async () => {
    const { run } = await failingSuite(EPIPE, (c) => setTimeout(() => c.abort(), 20)).suite;
    expect(run.profiles.map((p) => [p.name, p.verdict, p.error])).toEqual([['baseline', 'interrupted', undefined]]);
    expect(run.profiles[0].notes).toContain('not run (the run was stopped): network-latency');
  });

  it('the stop before the failure: interrupted too', async () => {
    const { run } = await failingSuite(EPIPE, (c) => c.abort()).suite;
    expect(run.profiles.map((p) => [p.name, p.verdict])).toEqual([['baseline', 'interrupted']]);
  });
});

describe('a failure with no stop', () => {
  it('fails its profile alone, the error named, no threshold judged, and the suite goes on', async () => {
    const started = performance.now();
    const { suite, said } = failingSuite(EPIPE);
    const { run } = await suite;
    expect(run.verdict).toBe('fail');
    expect(run.profiles.map((p) => [p.name, p.verdict, p.error, p.thresholds.length])).toEqual([
      ['baseline', 'fail', EPIPE.message, 0],
      ['network-latency', 'fail', EPIPE.message, 0],
    ]);
    expect(run.profiles[0].verdictReason).toBe(`the profile could not run: ${EPIPE.message}`);
    expect(
      said.filter((l) => l.includes('internal error, the profile could not run: Error: Not connected')),
    ).toHaveLength(2);
    // Each waited for a stop that might have been on its way.
    expect(performance.now() - started).toBeGreaterThanOrEqual(2 * SIGNAL_HANDLING_GRACE_MS - 10);
  });

  it('the reports say it: report.json (to its schema), summary.md and junit.xml name the error', async () => {
    const { run, histories } = await failingSuite(EPIPE).suite;
    const out = mkdtempSync(join(tmpdir(), 'faultline-run-failure-'));
    try {
      await writeReports(out, run, histories);
      const json = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
      expect(runReportSchema.safeParse(json).success).toBe(true);
      expect(json.profiles.map((p: { error?: string }) => p.error)).toEqual([EPIPE.message, EPIPE.message]);
      expect(readFileSync(join(out, 'summary.md'), 'utf8')).toContain(`**Error:** ${EPIPE.message}`);
      expect(readFileSync(join(out, 'junit.xml'), 'utf8')).toMatch(
        /errors="2"[\s\S]*<error message="Not connected[^"]*" type="run">/,
      );
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it("the user's mistake ends the run: thrown as it is, for the CLI's one line and exit 2", async () => {
    const mistake = new ProfileError('chaos-profiles/baseline.yaml', 'workload.mix[0].tool', 'no such tool');
    await expect(failingSuite(mistake).suite).rejects.toBe(mistake);
  });
});
