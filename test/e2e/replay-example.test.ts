// The replay-accounting example (examples/byo-servers/memory-replays.yaml) gives the verdict it states: it fails,
// on purpose, only `unsafe_replays == 0` — every op whose answer was lost after commit is retried on a tool that
// declares neither idempotentHint nor a key — while server-memory's skipping of known names leaves no second
// effect. Its twin with the tool declared idempotent in the profile (`idempotent: true`) makes the same retries
// and counts none of them unsafe: the count follows the declaration, not the run.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/measure/run-report.ts';
import { REPO, runCli } from '../helpers/cli.ts';

const EXAMPLE = join(REPO, 'examples/byo-servers/memory-replays.yaml');
const dir = mkdtempSync(join(tmpdir(), 'faultline-replay-example-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(file: string, out: string) {
  const result = await runCli(['run', file, '--out', join(dir, out)], { timeoutMs: 180_000 });
  const report: RunReport = JSON.parse(readFileSync(join(dir, out, 'report.json'), 'utf8'));
  return { result, profile: report.profiles[0] };
}

describe('examples/byo-servers/memory-replays.yaml', () => {
  it('fails only unsafe_replays == 0: one unsafe replay per lost answer, no second effect', async () => {
    const { result, profile: p } = await run(EXAMPLE, 'as-shipped');
    expect(result.code).toBe(1);
    expect(p.thresholds.filter((t) => t.status !== 'pass').map((t) => t.expr)).toEqual(['unsafe_replays == 0']);
    const hits = p.metrics.faultWindows[0].hits;
    expect(hits).toBe(8);
    expect(p.metrics.replaysAfterUnknown).toBe(hits);
    expect(p.metrics.unsafeReplays).toBe(hits);
    expect(p.metrics.unsafeReplayDuplicates).toBe(0);
    expect(p.metrics.duplicateEffects).toBe(0);
  }, 200_000);

  it('declared idempotent in the profile, the same replays are safe and the example passes', async () => {
    const twin = join(dir, 'memory-replays-idempotent.yaml');
    writeFileSync(
      twin,
      readFileSync(EXAMPLE, 'utf8').replace(
        '    - tool: create_entities\n',
        '    - tool: create_entities\n      idempotent: true\n',
      ),
    );
    const { result, profile: p } = await run(twin, 'declared');
    expect(result.code, result.stderr).toBe(0);
    expect(p.metrics.replaysAfterUnknown).toBe(8);
    expect(p.metrics.unsafeReplays).toBe(0);
  }, 200_000);
});
