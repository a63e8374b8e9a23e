// An error that ends one profile and is not the user's mistake fails that profile alone: here the first profile's
// reference server child is really killed while it boots (as an OOM killer would on a busy runner). The run goes on
// to the next profile, writes every report with the error named, exits 1, and leaves nothing running. The child is
// stopped (SIGSTOP) as soon as it is seen and only then killed, so it cannot have said `ready` in between.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli.ts';
import { marked } from '../helpers/processes.ts';
import { shortProfile } from '../helpers/short-profile.ts';

const mark = randomUUID();
const dir = mkdtempSync(join(tmpdir(), 'faultline-profile-error-'));
afterAll(() => {
  for (const p of marked(mark)) process.kill(p.pid, 'SIGKILL');
});

/** Waits for the first reference server child of the run and kills it before it can answer `ready`. */
async function killFirstServerChild(limitMs: number): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < limitMs) {
    const child = marked(mark).find((p) => p.args.includes('child-main'));
    if (child) {
      process.kill(child.pid, 'SIGSTOP');
      process.kill(child.pid, 'SIGKILL');
      return child.pid;
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`no server child within ${limitMs} ms`);
}

describe('an error in one profile', () => {
  it('fails that profile alone with the error named; the next one runs, every report is written, exit 1', async () => {
    mkdirSync(join(dir, 'chaos-profiles'));
    for (const name of ['a-first', 'b-second']) {
      writeFileSync(join(dir, `chaos-profiles/${name}.yaml`), shortProfile(name, '1s'));
    }
    const out = join(dir, 'out');
    const run = spawn(
      process.execPath,
      [join(REPO, 'bin/faultline.js'), 'run', join(dir, 'chaos-profiles'), '--out', out],
      {
        cwd: dir,
        env: { ...process.env, FAULTLINE_SIGNAL_MARK: mark },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    run.stderr.on('data', (d) => {
      stderr += d;
    });
    run.stdout.resume();
    const exited = new Promise<number | null>((resolve) => run.on('close', resolve));
    const killed = await killFirstServerChild(60_000);
    expect(await exited, stderr).toBe(1);

    for (const file of ['report.json', 'summary.md', 'junit.xml', 'report.html']) {
      expect(existsSync(join(out, file)), `${file} missing; faultline said:\n${stderr}`).toBe(true);
    }
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    expect(report.profiles.map((p: { name: string; verdict: string }) => [p.name, p.verdict])).toEqual([
      ['a-first', 'fail'],
      ['b-second', 'pass'],
    ]);
    const [first, second] = report.profiles;
    expect(first.error).toMatch(/^reference server child exited before ready \(code null, signal SIGKILL\)/);
    expect(first.thresholds).toEqual([]);
    expect(second.error).toBeUndefined();
    expect(second.metrics.ops).toBeGreaterThanOrEqual(1);
    // The stack is said for the profile, not as the run's end.
    expect(stderr).toContain('[1/2] a-first: internal error, the profile could not run: Error: reference server child');
    expect(stderr).not.toMatch(/^faultline: internal error/m);
    expect(readFileSync(join(out, 'junit.xml'), 'utf8')).toMatch(/<error message="reference server child exited/);
    // Nothing left: the killed child, and every process the run started.
    expect(marked(mark).some((p) => p.pid === killed)).toBe(false);
    await expect.poll(() => marked(mark), { timeout: 5000 }).toEqual([]);
  }, 120_000);
});
