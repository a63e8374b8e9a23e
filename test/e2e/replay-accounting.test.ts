// Issue 28 item 1: drop-after-commit loses answers after the charge committed. The naive client replays them with
// fresh keys (unsafe, and each one charges again); the resilient client looks the key up first (one op at a time,
// every lost answer is settled so). Under network-reset the resilient client does replay after unknown outcomes,
// always with the same honoured key (0 unsafe). report.json carries every count, indeterminate_effects included.
// The resilient runs' counts are checked where those runs already are: legacy on the default suite's
// (suite-checks/era.ts, network.ts), modern in era-faults.test.ts; the naive network-reset in network.test.ts.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';

const T = 90_000;

async function run(policy: 'naive') {
  const out = mkdtempSync(join(tmpdir(), `replay-${policy}-`));
  const cli = await runCli(
    ['run', 'chaos-profiles/drop-after-commit.yaml', '--policy', policy, '--out', out, '--verbose'],
    { timeoutMs: T },
  );
  const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
  const html = readFileSync(join(out, 'report.html'), 'utf8');
  return { cli, html, metrics: report.profiles[0].metrics };
}

describe('replay accounting on drop-after-commit', () => {
  it('naive: replays after unknown outcomes are unsafe and charge again; its control fires', {
    timeout: T,
  }, async () => {
    const { cli, html, metrics } = await run('naive');
    expect(cli.code).toBe(0);
    expect(metrics.replaysAfterUnknown).toBeGreaterThan(0);
    expect(metrics.unsafeReplays).toBeGreaterThan(0);
    expect(metrics.unsafeReplayDuplicates).toBeGreaterThan(0);
    // Every second charge the ledger saw came from an unsafe replay.
    expect(metrics.unsafeReplayDuplicates).toBe(metrics.duplicateEffects);
    // A key of its own in report.json (a number: effects are observable here), equal to the reconciliation's list.
    expect(metrics.indeterminateEffects).toBeTypeOf('number');
    expect(metrics.indeterminateEffects).toBe(metrics.reconciliation.infoWithEffectOps.length);
    expect(cli.stdout).toMatch(/unsafe_replays [1-9]/);
    expect(cli.stdout).toMatch(/indeterminate_effects \d/);
    // report.html's effects table names the ops behind the unsafe replays that charged twice.
    const row = html.slice(html.indexOf('<code>unsafe_replay_duplicates</code>'));
    expect(row.slice(0, row.indexOf('</tr>'))).toContain(metrics.reconciliation.duplicateOps[0]);
  });
});
