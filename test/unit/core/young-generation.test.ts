// bin/faultline.js holds V8's young generation at its start size (--semi-space-growth-factor=1) until the command
// decides; a started keeper (keepHeapSmall, core/heap-keeper.ts) holds it where it is; releaseYoungGeneration gives
// V8 its own growth back. Each case is a fresh process: a V8 flag belongs to the process.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { REPO } from '../../helpers/cli.ts';

const MiB = 1024 * 1024;

/** How each case starts: as bin/faultline.js does, then released, or as the server child's kept heap does. */
const STARTS = {
  held: "setFlagsFromString('--semi-space-growth-factor=1');",
  released: "setFlagsFromString('--semi-space-growth-factor=1'); releaseYoungGeneration();",
  kept: "keepHeapSmall({ everyMs: 60_000 }, { FAULTLINE_HEAP_KEEPER: 'on' });",
};

/** The young generation's size after an allocation burst whose objects survive a few minor collections. */
function youngGenerationAfterBurst(start: keyof typeof STARTS): number {
  const script = `
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
const { keepHeapSmall, releaseYoungGeneration } = await import('./src/core/heap-keeper.ts');
${STARTS[start]}
let kept = [];
for (let i = 0; i < 3_000_000; i++) {
  kept.push({ i, text: 'record ' + i });
  if (kept.length > 100_000) kept = [];
}
process.stdout.write(String(getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size));
`;
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: REPO,
    encoding: 'utf8',
  });
  expect(run.stderr).toBe('');
  return Number(run.stdout);
}

// Node 22's V8 (12.4) grows the young generation whatever the factor (its CI lane measured 32 MiB held), so
// there the hold does nothing and this case does not run; Node 20 and 24 honour it.
const honoured = !process.versions.node.startsWith('22.');

describe('the young generation', () => {
  it.runIf(honoured)(
    'stays a fraction of what V8 grows it to once released (control), held by the flag or by a keeper',
    () => {
      const held = youngGenerationAfterBurst('held');
      const kept = youngGenerationAfterBurst('kept');
      const released = youngGenerationAfterBurst('released');
      expect(held).toBeGreaterThan(0);
      expect(kept).toBeGreaterThan(0);
      // Held: what it had grown to while tsx loaded (4 MiB here; one CI lane's Node 24 measured 9.75 MiB, so no
      // absolute bound); released, V8 takes it to 32 MiB (Node 20) or 128 MiB (Node 24). Where the hold does
      // nothing (Node 22) both come out at 32 MiB, and this ratio fails.
      expect(released).toBeGreaterThanOrEqual(16 * MiB);
      expect(released).toBeGreaterThanOrEqual(3 * held);
      // The keeper holds the space where it is when it starts (the server child has no first line to hold it).
      expect(released).toBeGreaterThanOrEqual(3 * kept);
    },
    60_000,
  );
});
