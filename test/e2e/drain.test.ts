// Every effect is seen: the run ends only when the server is quiet. A report that ignores its cancellation and
// publishes seconds after the client timed out is counted (ghost or indeterminate, by the outcome the client
// recorded) exactly once per op; with a drain limit shorter than the late commits, the same run did not settle and
// fails saying so, and its ledger, read too early, shows none of them (what every run showed before the drain).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createNetworkBackend } from '../../src/network/index.ts';
import { loadProfile } from '../../src/profile/load.ts';
import { runProfile } from '../../src/run/run-profile.ts';

// Each try gives up at 1.2 s: a calibration p95 up to 300 ms (a quarter of it) still finds that sound, where 500 ms
// let a loaded machine (p95 over 125 ms) turn both verdicts inconclusive. The last report (op 3, started at 0.75 s)
// lands 1.8 s after that op gave up.
const BUILD_MS = 3000;

function lateCommits(drain: string): string {
  return `
name: late-commits
description: Reports that ignore cancellation publish ${BUILD_MS} ms after they started; the client gives up at 1200 ms.
seed: 3
duration: 1s
client: { policy: none, attemptTimeoutMs: 1200, deadlineMs: 1200, maxAttempts: 1 }
workload:
  rate: 4
  mix:
    - tool: generate_report
      args: { report_type: sales, duration_ms: ${BUILD_MS}, ignore_cancel: true }
${drain}
`;
}

async function run(text: string) {
  const dir = mkdtempSync(join(tmpdir(), 'faultline-drain-'));
  const file = join(dir, 'late-commits.yaml');
  writeFileSync(file, text);
  return runProfile(loadProfile(file), {
    signal: new AbortController().signal,
    network: (seed, onDecision) => createNetworkBackend('embedded', { seed, onDecision }),
  });
}

describe('drain', () => {
  it('late commits after the client gave up are all counted; a drain limit shorter than them is a fail', async () => {
    const [drained, cut] = await Promise.all([run(lateCommits('')), run(lateCommits('drain: { limitMs: 300 }'))]);

    const { report, history } = drained;
    const m = report.metrics;
    expect(m.ops).toBeGreaterThanOrEqual(3);
    expect(m.opsOk).toBe(0); // every attempt timed out
    const failed = history.ops!.filter((o) => o.outcome === 'fail').length;
    const info = history.ops!.filter((o) => o.outcome === 'info').length;
    expect(failed + info).toBe(m.ops);
    expect(history.effects).toHaveLength(m.ops); // each report published once, late
    expect(m.ghostEffects).toBe(failed);
    expect(m.reconciliation.infoWithEffectOps).toHaveLength(info);
    // Every effect landed after the last op had ended: a ledger read when the workload ended would hold none.
    const lastOpEnd = Math.max(...history.ops!.map((o) => o.endMs));
    expect(Math.min(...[...history.effects].map((e) => e.atMs))).toBeGreaterThan(lastOpEnd);
    expect(report.drainMs).toBeGreaterThan(500);
    expect(report.verdict).toBe('pass'); // no thresholds, drained: nothing failed

    expect(cut.report.verdict).toBe('fail');
    expect(cut.report.verdictReason).toMatch(/did not settle within the drain limit of 300 ms: \d+ tool handler/);
    expect(cut.history.effects).toHaveLength(0); // read before the late commits: none of them seen
    expect(cut.report.drainMs).toBeGreaterThanOrEqual(290);
  });
});
