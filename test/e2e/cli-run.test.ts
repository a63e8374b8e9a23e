// The main job as a user runs it: `faultline run` from a folder with chaos-profiles/, reports written, exit
// codes, replay from a report, and Ctrl-C leaving nothing running.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT_CODE_OF, type Verdict } from '../../src/measure/run-report.ts';
import { verdictStyle } from '../../src/report/verdict-style.ts';
import { REPO, runCli } from '../helpers/cli.ts';
import { DOCUMENTED_METRIC_KEYS } from '../helpers/report-shape.ts';
import { expectPassed } from '../helpers/run.ts';
import { edited } from '../helpers/short-profile.ts';

function workspace(profiles: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'faultline-run-'));
  mkdirSync(join(dir, 'chaos-profiles'));
  for (const [name, text] of Object.entries(profiles)) writeFileSync(join(dir, 'chaos-profiles', name), text);
  return dir;
}

// The shipped baseline, shorter, slower and without its latency bound: these tests are about the command (reports,
// exit codes, replay), and a time bound missed on a loaded machine would make the exit code 3 instead of 0.
const shipped = readFileSync(join(REPO, 'chaos-profiles/baseline.yaml'), 'utf8');
const baseline = edited(
  edited(edited(shipped, /^duration: .*$/m, 'duration: 2s'), /^ {2}rate: \d+$/m, '  rate: 10'),
  /^ {2}- latency_p99_ms < 1000\n/m,
  '',
);

describe('faultline run', () => {
  it('with no arguments runs every profile in ./chaos-profiles and writes all reports', async () => {
    const dir = workspace({ 'baseline.yaml': baseline });
    const result = await runCli(['run'], { cwd: dir });
    expect(result.stderr).not.toMatch(/internal error/);
    for (const f of ['report.json', 'junit.xml', 'report.html', 'summary.md', 'trace.jsonl']) {
      expect(existsSync(join(dir, 'faultline-report', f)), f).toBe(true);
    }
    const report = JSON.parse(readFileSync(join(dir, 'faultline-report/report.json'), 'utf8'));
    expect(report).toMatchObject({ schemaVersion: 2, faultline: '0.1.0', seed: 7 });
    const p = report.profiles[0];
    expect(p).toMatchObject({ name: 'baseline', seed: 7, policy: 'resilient' });
    expectPassed(p);
    expect(result.code).toBe(EXIT_CODE_OF[p.verdict as Verdict]);
    for (const key of DOCUMENTED_METRIC_KEYS) {
      expect(p.metrics, key).toHaveProperty(key);
    }
    expect(p.decisionLogSha256).toMatch(/^[0-9a-f]{64}$/);
    // The summary names a pass among the passes, anything else on a line of its own.
    expect(result.stdout).toContain(
      p.verdict === 'pass' ? '✔ passed (1): baseline' : `${verdictStyle(p.verdict).label} baseline`,
    );
  });

  it('exits 1 when a threshold fails, and replay reruns it with the same seed and decision log', async () => {
    const failing = baseline
      .replace('name: baseline', 'name: impossible')
      .replace('  - error_rate == 0', '  - ops > 100000');
    const dir = workspace({ 'impossible.yaml': failing });
    const run = await runCli(['run', '--seed', '42'], { cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/ops > 100000/);
    const replay = await runCli(['replay', 'faultline-report/report.json'], { cwd: dir });
    expect(replay.code).toBe(1);
    expect(replay.stderr).toMatch(/replaying impossible .*seed 42/);
    expect(replay.stderr).toMatch(/decisions identical \(\d+\) to the original run, op by op/);
  });

  it('Ctrl-C tears everything down: exit 130, no server child left', async () => {
    const dir = workspace({ 'baseline.yaml': baseline.replace('duration: 2s', 'duration: 20s') });
    const child = spawn(process.execPath, [join(REPO, 'bin/faultline.js'), 'run'], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        if (stderr.includes('network backend')) {
          clearInterval(timer);
          resolve();
        }
      }, 100);
    });
    // The reference server's process (tsx's esbuild service is a child too, and leaves on its own). Waited for,
    // not slept for: on busy cores the fork can come later than any fixed pause.
    const psChildren = () => {
      try {
        return execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(child.pid)]).toString();
      } catch {
        return ''; // ps exits 1 while there is no child yet
      }
    };
    const serverChildren = () =>
      psChildren()
        .split('\n')
        .filter((line) => line.includes('child-main'))
        .map((line) => Number(line.trim().split(/\s+/)[0]));
    let children = serverChildren();
    for (const end = Date.now() + 30_000; children.length === 0 && Date.now() < end; children = serverChildren())
      await new Promise((r) => setTimeout(r, 100));
    expect(children).toHaveLength(1); // the server child was running
    const started = Date.now();
    child.kill('SIGINT');
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(130);
    expect(Date.now() - started).toBeLessThan(10_000);
    // The harness waited for its server to exit before exiting itself.
    for (const pid of children) expect(() => process.kill(pid, 0), `server ${pid} still alive`).toThrow();
  });
});
