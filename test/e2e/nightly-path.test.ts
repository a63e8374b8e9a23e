// The Action and the image run what they ship. action.yml's own steps run as a runner would, from a fresh clone
// of this working tree, and deploy/Dockerfile's stages are mirrored on temporary folders (no container engine
// here); each must then run baseline.yaml (its count thresholds) to exit 0 with a report. The steps come from
// the files, so a broken install step, a stage that forgets dist/ or a runtime that needs a devDependency fails
// here. The installs come from npm's local cache (prefer-offline); the two run side by side, a few minutes.
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rm,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import type { RunReport } from '../../src/measure/run-report.ts';
import { REPO } from '../helpers/cli.ts';
import { cloneWorkingTree } from '../helpers/clone-working-tree.ts';
import { runCompositeAction } from '../helpers/composite-action.ts';
import { buildStages, hostPath } from '../helpers/dockerfile-stages.ts';
import { runCommand } from '../helpers/run-command.ts';

const PROFILE = 'chaos-profiles/baseline.yaml';
/** Thresholds on wall-clock time (latency, a timed-out first attempt) that 2 noisy cores can break. */
const WALL_CLOCK = /latency|_ms\b|attempts_per_op/;
/** One install and build (npm ci, tsc, esbuild): about a minute on a quiet machine, ten at a load of 24. */
const INSTALL_TIMEOUT_MS = 1_200_000;
const INSTALL_ENV = { npm_config_prefer_offline: 'true', npm_config_update_notifier: 'false', CI: 'true' };
const TESTED_TESTCONTAINERS = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')).devDependencies
  .testcontainers as string;

const work = mkdtempSync(join(tmpdir(), 'faultline-nightly-path-'));
afterAll(() => promisify(rm)(work, { recursive: true, force: true }), 300_000);

function node(args: string[], cwd: string) {
  return runCommand(process.execPath, args, { cwd, timeoutMs: 180_000 });
}

/** baseline.yaml as a caller's own profile, keeping its count thresholds (errors, effects, leaks). */
function writeBaseline(dir: string): string {
  const doc = parseDocument(readFileSync(join(REPO, PROFILE), 'utf8'));
  const counts = (doc.toJS().expect as string[]).filter((t) => !WALL_CLOCK.test(t));
  expect(counts.length).toBeGreaterThan(3);
  doc.set('expect', counts);
  const path = join(dir, PROFILE);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, doc.toString());
  return path;
}

/** The verdict, or why there is none, for an assertion message. */
function outcome(code: number | null, stderr: string): string {
  return `exit ${code}\n${stderr.split('\n').slice(-15).join('\n')}`;
}

function readReport(dir: string): RunReport {
  return JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
}

describe.concurrent('what the Action and the image ship', () => {
  it('action.yml installs a built Faultline without devDependencies, runs a profile: exit 0, a report', async () => {
    const actionPath = cloneWorkingTree(join(work, 'action'));
    // The calling repository: its own checkout with a profile of its own.
    const workspace = join(work, 'caller');
    writeBaseline(workspace);
    const temp = join(work, 'runner-temp');
    mkdirSync(temp);

    const result = await runCompositeAction({
      actionPath,
      workspace,
      temp,
      inputs: { profiles: PROFILE },
      env: INSTALL_ENV,
      stepTimeoutMs: INSTALL_TIMEOUT_MS,
    });
    const ran = result.steps.filter((s) => s.ran);
    const run = ran.find((s) => s.name === 'Run Faultline');
    expect(result.outputs['exit-code'], outcome(run?.code ?? null, run?.stderr ?? '')).toBe('0');
    for (const step of ran) expect(step.code, `${step.name}\n${step.stdout}\n${step.stderr}`).toBe(0);
    expect(ran.map((s) => s.name)).toEqual(expect.arrayContaining(['Run Faultline', 'Job summary']));
    expect(result.failed).toBe(false);

    const out = join(workspace, result.outputs['report-dir']);
    expect(readReport(out).verdict).toBe('pass');
    expect(result.summary).toContain('baseline');

    // What the run used: the compiled CLI, with neither the TypeScript tools nor the optional testcontainers.
    expect(existsSync(join(actionPath, 'dist/bin/main.js'))).toBe(true);
    for (const dev of ['tsx', 'vitest', 'testcontainers']) {
      expect(existsSync(join(actionPath, 'node_modules', dev)), dev).toBe(false);
    }

    // --toxiproxy container on that install: one line saying how to add testcontainers, exit 2.
    const container = await node(
      [join(actionPath, 'bin/faultline.js'), 'run', PROFILE, '--toxiproxy', 'container', '--out', join(work, 'c')],
      workspace,
    );
    expect(container.code, container.stderr).toBe(2);
    // The error is one line of its own (after the profile's progress line), with no stack.
    const errors = container.stderr.split('\n').filter((line) => line.startsWith('faultline:'));
    expect(errors).toEqual([expect.stringContaining(`npm install testcontainers@${TESTED_TESTCONTAINERS}`)]);
    expect(container.stderr).not.toMatch(/^\s+at /m);

    // npm's prepare script again (as `npx faultline` in a checkout runs it): a current dist/ is kept, file for file.
    const main = join(actionPath, 'dist/bin/main.js');
    const before = statSync(main).ino;
    const kept = await node(['scripts/prepare.js'], actionPath);
    expect(kept.code, kept.stderr).toBe(0);
    expect(statSync(main).ino).toBe(before);
    // Its negative control: a source newer than dist/ is built (here: said unbuildable, the devDependencies pruned).
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(actionPath, 'src/index.ts'), later, later);
    const stale = await node(['scripts/prepare.js'], actionPath);
    expect(stale.stderr).toContain('devDependencies not installed');
  }, 1_800_000);

  it('deploy/Dockerfile, its stages run on folders, gives a runtime that runs a profile: exit 0, a report', async () => {
    const context = cloneWorkingTree(join(work, 'context'));
    const stages = await buildStages(join(context, 'deploy/Dockerfile'), context, join(work, 'image'), {
      env: INSTALL_ENV,
      timeoutMs: INSTALL_TIMEOUT_MS,
    });
    expect(stages.length).toBeGreaterThan(1);
    const runtime = stages.at(-1)!;
    expect(runtime.image).toMatch(/^node:20\b/);
    expect(runtime.user).toBe('node');
    const [command, ...entry] = runtime.entrypoint ?? [];
    expect(command).toBe('node');

    // The image holds what it runs and none of what it was built with.
    const app = join(hostPath(runtime, entry[0]), '../..');
    expect(existsSync(join(app, 'dist/bin/main.js'))).toBe(true);
    for (const absent of ['src', 'node_modules/tsx', 'node_modules/vitest', 'node_modules/testcontainers']) {
      expect(existsSync(join(app, absent)), absent).toBe(false);
    }

    // `docker run IMAGE run <profile>`: the entrypoint from the runtime's working directory.
    const cwd = hostPath(runtime, runtime.workdir);
    const args = entry.map((a) => (a.startsWith('/') ? hostPath(runtime, a) : a));
    const profile = writeBaseline(cwd);
    const result = await node([...args, 'run', profile], cwd);
    expect(result.code, outcome(result.code, result.stderr)).toBe(0);
    expect(readReport(join(cwd, 'faultline-report')).verdict).toBe('pass');
  }, 1_800_000);
});

describe('bin/faultline.js without dist/ and without tsx', () => {
  it('says in one line how to build, exit 2, no module-not-found stack', async () => {
    const checkout = join(work, 'unbuilt');
    mkdirSync(join(checkout, 'bin'), { recursive: true });
    cpSync(join(REPO, 'src'), join(checkout, 'src'), { recursive: true });
    for (const file of ['bin/faultline.js', 'bin/dist-state.js']) copyFileSync(join(REPO, file), join(checkout, file));
    copyFileSync(join(REPO, 'package.json'), join(checkout, 'package.json'));
    const result = await node([join(checkout, 'bin/faultline.js'), '--help'], checkout);
    expect(result.code).toBe(2);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('npm run build');
    expect(result.stderr).not.toContain('ERR_MODULE_NOT_FOUND');
  });
});
