// A run over the size caps (it needs --allow-large) keeps its heap small by itself (core/heap-keeper.ts), and says
// so; --no-low-memory leaves it to V8. The run is stopped once its first lines are out: what is checked is the
// choice, not the memory (bench/run-scale.ts measures that).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'faultline-low-memory-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const profile = (ops: number) => {
  const file = join(dir, `ops-${ops}.yaml`);
  writeFileSync(
    file,
    `name: ops-${ops}
description: no faults, ${ops} ops
seed: 7
duration: 60s
workload:
  concurrency: 4
  ops: ${ops}
  mix:
    - tool: search_documents
      args: { query: invoice, page_size: 10 }
expect:
  - error_rate == 0
`,
  );
  return file;
};

/** Runs until the workload starts, then stops it with SIGINT; everything printed to stderr by then. */
function firstLines(args: string[]): Promise<{ stderr: string; code: number | null }> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env };
    delete env.FAULTLINE_HEAP_KEEPER;
    const child = spawn(process.execPath, ['bin/faultline.js', 'run', ...args, '--out', join(dir, 'out')], {
      cwd: REPO,
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no workload line in 60 s:\n${stderr}`));
    }, 60_000);
    child.stderr.on('data', (d) => {
      stderr += d;
      if (/workload ·|workload\b.*ops/.test(stderr)) child.kill('SIGINT');
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ stderr, code });
    });
  });
}

const SAYS = 'a run over the size caps collects garbage early to stay small (--no-low-memory turns it off)';

describe('the heap keeper for a run over the size caps', () => {
  it('is on by itself, and the run says so', async () => {
    const { stderr } = await firstLines([profile(20_000), '--allow-large']);
    expect(stderr).toContain(SAYS);
  }, 90_000);

  it('stays off with --no-low-memory, and for a run within the caps (controls)', async () => {
    const off = await firstLines([profile(20_000), '--allow-large', '--no-low-memory']);
    expect(off.stderr).toContain('network backend');
    expect(off.stderr).not.toContain(SAYS);
    const small = await firstLines([profile(200)]);
    expect(small.stderr).toContain('network backend');
    expect(small.stderr).not.toContain(SAYS);
  }, 150_000);
});
