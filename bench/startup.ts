// How fast `faultline` answers: `--help` and `validate` from the packed install (npm pack, installed into a
// temporary project), from the checkout's bin/faultline.js (dist/, as `npm ci` builds it) and from the sources
// through tsx, each also through `npx` beside npx's own floor, and beside `node -e 0`, measured side by side in one run
// (the cases take turns, so a noisy neighbour slows them all alike). Prints medians and ratios; asserts nothing.
// Run: npm run bench:startup [-- --runs 9 --root DIR]   (--root: another checkout to pack, e.g. an older commit)
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { benchArgs, parseCount } from './args.ts';

const { options } = benchArgs<{ runs: number; root: string }>(
  'bench:startup',
  'how fast faultline answers --help and validate, from the packed install, the checkout and the sources',
  (c) =>
    c
      .option('--runs <n>', 'runs of each case', parseCount, 9)
      .option('--root <dir>', 'the checkout to pack (e.g. an older commit)', '.'),
);
const RUNS = options.runs;
const ROOT = resolve(options.root);

interface Case {
  name: string;
  /** The program (default: this node). */
  command?: string;
  args: string[];
  cwd: string;
}

function npm(args: string[], cwd: string): string {
  return execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
}

/** Packs ROOT (its prepare script builds dist/, in ROOT too) and installs the tarball into a new project. */
function packedInstall(dir: string): string {
  const [packed] = JSON.parse(npm(['pack', '--json', '--pack-destination', dir], ROOT));
  const project = join(dir, 'project');
  execFileSync('mkdir', ['-p', project]);
  writeFileSync(join(project, 'package.json'), '{ "private": true, "type": "module" }\n');
  npm(['install', '--no-audit', '--no-fund', '--loglevel=error', join(dir, packed.filename)], project);
  return project;
}

function timeOnce(c: Case): number {
  const start = performance.now();
  const result = spawnSync(c.command ?? process.execPath, c.args, { cwd: c.cwd, stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = performance.now() - start;
  if (result.status !== 0) throw new Error(`${c.name} exited ${result.status}: ${result.stderr.toString().trim()}`);
  return ms;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const dir = mkdtempSync(join(tmpdir(), 'faultline-startup-'));
try {
  process.stderr.write(`packing ${ROOT} and installing the tarball into ${dir} ...\n`);
  const project = packedInstall(dir);
  const installed = join(project, 'node_modules/faultline');
  const profile = 'chaos-profiles/baseline.yaml';
  const cases: Case[] = [
    { name: 'node -e 0', args: ['-e', '0'], cwd: project },
    { name: 'packed: faultline --help', args: [join(installed, 'bin/faultline.js'), '--help'], cwd: installed },
    {
      name: `packed: faultline validate ${profile}`,
      args: [join(installed, 'bin/faultline.js'), 'validate', profile],
      cwd: installed,
    },
    // Packing ran the prepare script in ROOT, so its dist/ is current: the checkout runs it, as after `npm ci`.
    { name: 'checkout (dist/): faultline --help', args: [join(ROOT, 'bin/faultline.js'), '--help'], cwd: ROOT },
    // What a user types: npx. `npx -c true` is npx's own floor (npm loads and reads the project, runs nothing).
    { name: 'npx -c true (npx alone)', command: 'npx', args: ['-c', 'true'], cwd: project },
    { name: 'packed: npx faultline --help', command: 'npx', args: ['faultline', '--help'], cwd: project },
    { name: 'checkout: npx faultline --help', command: 'npx', args: ['--yes', 'faultline', '--help'], cwd: ROOT },
    { name: 'sources (tsx): --help', args: ['bin/run-ts.js', 'src/cli/main.ts', '--help'], cwd: ROOT },
    {
      name: `sources (tsx): validate ${profile}`,
      args: ['bin/run-ts.js', 'src/cli/main.ts', 'validate', profile],
      cwd: ROOT,
    },
  ];
  for (const c of cases) timeOnce(c); // warm the file cache
  const samples = new Map(cases.map((c) => [c.name, [] as number[]]));
  for (let i = 0; i < RUNS; i++) for (const c of cases) samples.get(c.name)!.push(timeOnce(c));
  const base = median(samples.get('node -e 0')!);
  const width = Math.max(...cases.map((c) => c.name.length));
  process.stdout.write(`faultline start-up, median of ${RUNS} runs each (${ROOT})\n`);
  for (const c of cases) {
    const xs = samples.get(c.name)!;
    const m = median(xs);
    process.stdout.write(
      `${c.name.padEnd(width)}  ${m.toFixed(0).padStart(6)} ms  ×${(m / base).toFixed(2).padStart(5)}  (min ${Math.min(...xs).toFixed(0)}, max ${Math.max(...xs).toFixed(0)})\n`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
