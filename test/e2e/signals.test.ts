// Signals at any moment of `faultline run`, to the faultline process and to its launcher (`npx faultline`: npm,
// then `sh -c`, then node): nothing it started is left afterwards (no process, no listening port), and a SIGINT or
// SIGTERM writes the reports of the profiles that finished, the one it was in marked interrupted. Every process of
// a run is found by a marker: an environment variable the forked server children inherit, and a TMPDIR whose path
// shows in the stdio servers' arguments (their snapshot file).
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ServerHandle } from '../../src/targets/child-target.ts';
import { REPO } from '../helpers/cli.ts';
import { marked } from '../helpers/processes.ts';
import { shortProfile } from '../helpers/short-profile.ts';

const profile = shortProfile;

interface Run {
  mark: string;
  dir: string;
  out: string;
  launcher: ChildProcess;
  stderr: () => string;
  exited: Promise<number | null>;
}

const runs: Run[] = [];
afterEach(() => {
  // Whatever a failed test left: end the processes this test started, by their marker.
  for (const run of runs.splice(0)) for (const p of marked(run.mark)) tryKill(p.pid);
});

function tryKill(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {}
}

/** Three short profiles: a quick one, one over stdio, one over HTTP (by default); `jobs` at once. */
function start(
  via: 'process' | 'launcher',
  jobs = 1,
  profiles: Record<string, string> = { 'a-first': '1s', 'b-stdio': '6s', 'c-http': '4s' },
): Run {
  const mark = randomUUID();
  const dir = mkdtempSync(join(tmpdir(), 'faultline-signals-'));
  mkdirSync(join(dir, 'chaos-profiles'));
  mkdirSync(join(dir, `tmp-${mark}`));
  for (const [name, duration] of Object.entries(profiles)) {
    const target = name.endsWith('-stdio') ? 'reference-stdio' : '';
    writeFileSync(join(dir, `chaos-profiles/${name}.yaml`), profile(name, duration, target));
  }
  const out = join(dir, 'out');
  const args = ['run', join(dir, 'chaos-profiles'), '--out', out, '--jobs', String(jobs)];
  const env = { ...process.env, FAULTLINE_SIGNAL_MARK: mark, TMPDIR: join(dir, `tmp-${mark}`) };
  // The launcher runs from the checkout, where `npx faultline` is this package's own bin.
  const launcher =
    via === 'process'
      ? spawn(process.execPath, [join(REPO, 'bin/faultline.js'), ...args], { cwd: dir, env, stdio: 'pipe' })
      : // Its own process group, as a terminal gives a job: a signal to the group is Ctrl-C (or a CI cancel).
        spawn('npx', ['--yes', 'faultline', ...args], { cwd: REPO, env, stdio: 'pipe', detached: true });
  let stderr = '';
  launcher.stderr?.on('data', (d) => {
    stderr += d;
  });
  launcher.stdout?.resume();
  const exited = new Promise<number | null>((resolve) => launcher.on('close', (code) => resolve(code)));
  const run = { mark, dir, out, launcher, stderr: () => stderr, exited };
  runs.push(run);
  return run;
}

/** TCP ports in LISTEN held by these pids (ss -ltnp). */
function listeningPorts(pids: readonly number[]): number[] {
  const lines = execFileSync('ss', ['-ltnpH']).toString().split('\n');
  return lines
    .filter((line) => pids.some((pid) => line.includes(`pid=${pid},`)))
    .map((line) => Number(/:(\d+)\s/.exec(line)?.[1]));
}

function allListening(): Set<number> {
  const lines = execFileSync('ss', ['-ltnH']).toString().split('\n');
  return new Set(lines.map((line) => Number(/:(\d+)\s/.exec(line)?.[1])));
}

async function until(what: string, ok: () => boolean, limitMs = 60_000, run?: Run): Promise<void> {
  const started = Date.now();
  while (!ok()) {
    if (Date.now() - started > limitMs) throw new Error(`timed out waiting for ${what}\n${run?.stderr() ?? ''}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const MOMENTS = {
  /** The first profile is setting up: the network backend is up, its server starting. */
  'start-up': (run: Run) => until('start-up', () => run.stderr().includes('network backend'), 60_000, run),
  /** The first profile's reference server child is forked and booting (its modules load for a second or more). */
  'server boot': (run: Run) =>
    until('a booting server child', () => marked(run.mark).some((p) => p.args.includes('child-main')), 60_000, run),
  /** The first profile has finished and the second is about to start. */
  'between profiles': (run: Run) =>
    until('profile 1 done', () => /in \d+\.\ds: \d+ ops/.test(run.stderr()), 60_000, run),
  /** The stdio profile's workload is running: its server process exists. */
  'mid-profile': async (run: Run) => {
    await until('a stdio server', () => marked(run.mark).some((p) => p.args.includes('stdio-main')), 60_000, run);
    await new Promise((r) => setTimeout(r, 2000));
  },
};

/** Where a signal goes: the spawned process alone (faultline, or npm under npx), or its whole process group. */
type Recipient = 'alone' | 'group';

/** Signals, then waits until no marked process and none of their ports is left; returns how long that took. */
async function signalAndCheckClean(
  run: Run,
  via: 'process' | 'launcher',
  signal: NodeJS.Signals,
  to: Recipient = 'alone',
): Promise<number> {
  const before = marked(run.mark);
  const ports = listeningPorts(before.map((p) => p.pid));
  // The run was really going: faultline (under npm and sh when launched) and at least one port listening.
  expect(before.length, JSON.stringify(before)).toBeGreaterThanOrEqual(via === 'launcher' ? 3 : 1);
  expect(ports.length).toBeGreaterThanOrEqual(1);
  process.kill(to === 'group' ? -run.launcher.pid! : run.launcher.pid!, signal);
  const sent = Date.now();
  // A SIGINT/SIGTERM that reaches faultline: it tears down and writes reports, then exits. Otherwise (SIGKILL, or
  // a launcher gone without passing the signal on) what is left must notice by itself.
  // (A SIGINT to npm alone stays in `sh -c`, which holds it: faultline sees that shell wake up and stops itself.)
  const reachesFaultline = signal !== 'SIGKILL' && (via === 'process' || to === 'group' || signal === 'SIGINT');
  if (reachesFaultline) await run.exited;
  const exitedAfter = Date.now() - sent;
  const gone = () => marked(run.mark).length === 0 && ports.every((port) => !allListening().has(port));
  await until(`nothing left after ${signal}`, gone, exitedAfter + LEFTOVER_LIMIT_MS).catch((error) => {
    throw new Error(`${error.message} (still: ${JSON.stringify(marked(run.mark))})\n${run.stderr()}`);
  });
  return Date.now() - sent;
}

/** How long after faultline is gone (or was killed) its children and ports may take to go too. */
const LEFTOVER_LIMIT_MS = 2_500;

function report(run: Run): { profiles: { name: string; verdict: string; notes: string[] }[]; verdict: string } {
  return JSON.parse(readFileSync(join(run.out, 'report.json'), 'utf8'));
}

function expectReportFiles(run: Run): void {
  for (const file of ['report.json', 'summary.md', 'junit.xml', 'report.html']) {
    // What faultline said is the only trace of why a report is missing (it is gone by now).
    expect(existsSync(join(run.out, file)), `${file} missing; faultline said:\n${run.stderr()}`).toBe(true);
  }
}

/** Exit 130, the reports written, these profiles with these verdicts, the last naming the ones never started. */
function expectInterrupted(run: Run, code: number | null, verdicts: [string, string][], notRun: string): void {
  expect(code).toBe(130);
  expectReportFiles(run);
  const r = report(run);
  expect(r.verdict).toBe('interrupted');
  expect(r.profiles.map((p) => [p.name, p.verdict])).toEqual(verdicts);
  const named = r.profiles.map((p) => p.notes.includes(`not run (the run was stopped): ${notRun}`));
  expect(named).toEqual(verdicts.map((_, i) => i === verdicts.length - 1));
}

describe('signals to the faultline process', () => {
  it('SIGINT mid-profile: exit 130, the finished profile and the interrupted one reported, nothing left', async () => {
    const run = start('process');
    await MOMENTS['mid-profile'](run);
    const ms = await signalAndCheckClean(run, 'process', 'SIGINT');
    const verdicts: [string, string][] = [
      ['a-first', 'pass'],
      ['b-stdio', 'interrupted'],
    ];
    expectInterrupted(run, await run.exited, verdicts, 'c-http');
    expect(readFileSync(join(run.out, 'summary.md'), 'utf8')).toMatch(/b-stdio: interrupted/);
    expect(readFileSync(join(run.out, 'junit.xml'), 'utf8')).toMatch(/<skipped/);
    console.log(`SIGINT mid-profile: clean ${ms} ms after the signal`);
  });

  it('SIGINT with --jobs 2 mid-run: both running profiles interrupted, the third named not run, nothing left', async () => {
    const run = start('process', 2, { 'a-http': '8s', 'b-stdio': '8s', 'c-http': '1s' });
    // Both in flight: the stdio server and a reference server child are up, the workloads going.
    await until(
      'two profiles in flight',
      () => {
        const args = marked(run.mark).map((p) => p.args);
        return args.some((a) => a.includes('stdio-main')) && args.some((a) => a.includes('child-main'));
      },
      60_000,
      run,
    );
    await new Promise((r) => setTimeout(r, 2000));
    const ms = await signalAndCheckClean(run, 'process', 'SIGINT');
    const verdicts: [string, string][] = [
      ['a-http', 'interrupted'],
      ['b-stdio', 'interrupted'],
    ];
    expectInterrupted(run, await run.exited, verdicts, 'c-http');
    console.log(`SIGINT with --jobs 2 mid-run: clean ${ms} ms after the signal`);
  });

  it('SIGTERM between profiles: exit 130, the next profile marked interrupted, nothing left', async () => {
    const run = start('process');
    await MOMENTS['between profiles'](run);
    const ms = await signalAndCheckClean(run, 'process', 'SIGTERM');
    expect(await run.exited).toBe(130);
    expectReportFiles(run);
    const r = report(run);
    expect(r.profiles.map((p) => [p.name, p.verdict])).toEqual([
      ['a-first', 'pass'],
      ['b-stdio', 'interrupted'],
    ]);
    console.log(`SIGTERM between profiles: clean ${ms} ms after the signal`);
  });

  it('SIGTERM during start-up: exit 130, the first profile marked interrupted, nothing left', async () => {
    const run = start('process');
    await MOMENTS['start-up'](run);
    const ms = await signalAndCheckClean(run, 'process', 'SIGTERM');
    expect(await run.exited).toBe(130);
    expectReportFiles(run);
    expect(report(run).profiles.map((p) => [p.name, p.verdict])).toEqual([['a-first', 'interrupted']]);
    console.log(`SIGTERM during start-up: clean ${ms} ms after the signal`);
  });

  it("SIGTERM during the server child's boot: the boot is cut short, nothing left, the profile interrupted", async () => {
    const run = start('process');
    await MOMENTS['server boot'](run);
    const child = marked(run.mark).find((p) => p.args.includes('child-main'))!;
    const ms = await signalAndCheckClean(run, 'process', 'SIGTERM');
    expect(await run.exited).toBe(130);
    expect(marked(run.mark).some((p) => p.pid === child.pid)).toBe(false);
    expectReportFiles(run);
    expect(report(run).profiles.map((p) => [p.name, p.verdict])).toEqual([['a-first', 'interrupted']]);
    expect(run.stderr()).not.toMatch(/sent no 'ready'|internal error/);
    // The boot was not waited for: everything was gone sooner than one boot of the child takes on this machine now
    // (measured here, so a loaded machine moves both; waiting for the boot, as before, took longer than a boot).
    const bootStarted = Date.now();
    await (await ServerHandle.start({ seed: 1 })).stop();
    const bootMs = Date.now() - bootStarted;
    console.log(
      `SIGTERM during the server child's boot: clean ${ms} ms after the signal (one boot here: ${bootMs} ms)`,
    );
    expect(ms).toBeLessThan(bootMs);
  });

  it('SIGTERM before the run handles signals (its target still being checked): exit 130, not death by the signal', async () => {
    const mark = randomUUID();
    const dir = mkdtempSync(join(tmpdir(), 'faultline-signals-'));
    writeFileSync(join(dir, 'p.yaml'), profile('early', '1s'));
    // A stdio server that never answers: faultline waits on its tools/list before the run (and its handler) starts.
    // It gets a bare environment, so its marker is an argument.
    const silent = `node -e process.stdin.resume() ${mark}`;
    const env = { ...process.env, FAULTLINE_SIGNAL_MARK: mark };
    const child = spawn(
      process.execPath,
      [join(REPO, 'bin/faultline.js'), 'run', 'p.yaml', '--out', 'out', '--target-command', silent],
      { cwd: dir, env, stdio: 'ignore' },
    );
    runs.push({ mark } as Run);
    const closed = new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
      child.on('close', (code, signal) => resolve([code, signal])),
    );
    const server = () => marked(mark).some((p) => p.pid !== child.pid && p.args.includes('stdin.resume'));
    await until('the silent server', server);
    child.kill('SIGTERM');
    expect(await closed).toEqual([130, null]);
    await until('nothing left', () => marked(mark).length === 0, LEFTOVER_LIMIT_MS);
    expect(existsSync(join(dir, 'out'))).toBe(false);
  });

  it('launcher loss before the run handles signals: faultline still ends with exit 130', async () => {
    const mark = randomUUID();
    const dir = mkdtempSync(join(tmpdir(), 'faultline-signals-'));
    writeFileSync(join(dir, 'p.yaml'), profile('orphan', '1s'));
    // launcher (named faultline, so it is in the launch chain) -> sh running the script -> faultline. Killing the
    // launcher leaves the script's shell waiting on faultline, so the shell can say how faultline ended.
    const script = join(dir, 'launch-faultline.sh');
    writeFileSync(
      script,
      `node '${join(REPO, 'bin/faultline.js')}' run p.yaml --out out --target-command 'node -e process.stdin.resume() ${mark}'\necho "faultline exit $?" >&2\n`,
    );
    const launcher = spawn('sh', ['-c', `sh '${script}'; true`], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
    runs.push({ mark } as Run);
    let stderr = '';
    launcher.stderr.on('data', (d) => {
      stderr += d;
    });
    const server = () => marked(mark).some((p) => p.args.startsWith('node -e'));
    await until('the silent server', server);
    launcher.kill('SIGKILL');
    await until('faultline to end', () => stderr.includes('faultline exit'), 10_000);
    expect(stderr).toContain('is gone; stopping');
    expect(stderr).toContain('faultline exit 130');
    await until('nothing left', () => marked(mark).length === 0, LEFTOVER_LIMIT_MS);
  });

  for (const moment of ['start-up', 'mid-profile'] as const) {
    it(`SIGKILL ${moment}: every child notices and exits`, async () => {
      const run = start('process');
      await MOMENTS[moment](run);
      const ms = await signalAndCheckClean(run, 'process', 'SIGKILL');
      console.log(`SIGKILL ${moment}: clean ${ms} ms after the signal`);
    });
  }
});

describe('signals to the launcher (npx faultline: npm, sh, node)', () => {
  const cases: [NodeJS.Signals, keyof typeof MOMENTS][] = [
    ['SIGTERM', 'mid-profile'],
    ['SIGKILL', 'mid-profile'],
    ['SIGKILL', 'start-up'],
  ];
  for (const [signal, moment] of cases) {
    it(`${signal} to npm alone, ${moment}: faultline and every child exit`, async () => {
      const run = start('launcher');
      await MOMENTS[moment](run);
      const ms = await signalAndCheckClean(run, 'launcher', signal);
      console.log(`launcher ${signal} ${moment}: clean ${ms} ms after the signal`);
    });
  }

  it('SIGINT to npm alone, mid-profile: the run stops as on Ctrl-C, reports written, nothing left', async () => {
    const run = start('launcher');
    await MOMENTS['mid-profile'](run);
    const ms = await signalAndCheckClean(run, 'launcher', 'SIGINT');
    expect(run.stderr()).toContain('its launcher got SIGINT; stopping');
    expectReportFiles(run);
    expect(report(run).profiles.map((p) => [p.name, p.verdict])).toEqual([
      ['a-first', 'pass'],
      ['b-stdio', 'interrupted'],
    ]);
    console.log(`launcher SIGINT mid-profile: clean ${ms} ms after the signal`);
  });

  it('SIGINT to the process group (Ctrl-C), between profiles: reports written, nothing left', async () => {
    const run = start('launcher');
    await MOMENTS['between profiles'](run);
    const ms = await signalAndCheckClean(run, 'launcher', 'SIGINT', 'group');
    expectReportFiles(run);
    expect(report(run).profiles.map((p) => [p.name, p.verdict])).toEqual([
      ['a-first', 'pass'],
      ['b-stdio', 'interrupted'],
    ]);
    console.log(`launcher group SIGINT between profiles: clean ${ms} ms after the signal`);
  });
});
