// The two verdicts a busy CI runner used to bend, through the binary as the nightly job runs it: a naive client's
// double charge fails (exit 1, never 3), and a no-fault run's `retry_success_rate >= 1` fails as nothing to measure.
// Both hold on any machine: neither threshold is a time, so no load can make it inconclusive. The loaded lane
// (scripts/loaded-lane.sh) runs this file beside stress-ng.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/measure/run-report.ts';
import { REPO, runCli } from '../helpers/cli.ts';

async function runProfileText(name: string, text: string, args: string[] = []) {
  const dir = mkdtempSync(join(tmpdir(), 'faultline-verdict-'));
  writeFileSync(join(dir, `${name}.yaml`), text);
  const result = await runCli(['run', join(dir, `${name}.yaml`), '--out', join(dir, 'out'), ...args], {
    timeoutMs: 120_000,
  });
  const report = JSON.parse(readFileSync(join(dir, 'out/report.json'), 'utf8')) as RunReport;
  return { result, profile: report.profiles[0] };
}

describe('verdicts of counts, on any machine', () => {
  it("a naive client's duplicate charge fails the profile: exit 1, the threshold named", async () => {
    // The shipped dependency-5xx without its controls, so the naive policy is judged on `duplicate_effects == 0`.
    const text = readFileSync(join(REPO, 'chaos-profiles/dependency-5xx.yaml'), 'utf8').replace(
      /\ncontrols:[\s\S]*$/,
      '\n',
    );
    const { result, profile } = await runProfileText('naive-charges', text, ['--policy', 'naive']);
    const dup = profile.thresholds.find((t) => t.expr === 'duplicate_effects == 0');
    expect(profile.metrics.duplicateEffects).toBeGreaterThan(0);
    expect(dup).toMatchObject({ ok: false, status: 'fail' });
    expect(profile.verdict).toBe('fail');
    expect(result.code).toBe(1);
  });

  it('a no-fault profile with retry_success_rate >= 1 fails: nothing to measure is never a pass', async () => {
    const text = `name: nothing-retried
description: no fault, so no op is retried and the retry success rate has nothing to measure
seed: 3
duration: 1s
workload:
  rate: 10
  mix:
    - tool: search_documents
      args: { query: invoice }
expect:
  - retry_success_rate >= 1
  - recovery_ms <= 0 or n/a
`;
    const { result, profile } = await runProfileText('nothing-retried', text);
    expect(profile.thresholds[0]).toMatchObject({ actual: null, na: true, ok: false, status: 'na-fail' });
    expect(profile.thresholds[0].reason).toMatch(/^nothing to measure/);
    expect(profile.verdict).toBe('fail');
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/nothing to measure/);
  });
});
