// Same verdicts on a quiet and on a busy machine? Runs the default suite (`faultline run`) and/or the test suite
// (`vitest run`) N times quiet and N times beside two CPU burners, and prints, for every profile and every test,
// whether its verdict ever differed between runs (a flip). A test that passed only because the machine was too
// loaded to check its thresholds (test/helpers/run.ts logs it) counts as inconclusive. The burners are
// `stress-ng --cpu 2` when it is on the PATH, else two busy Node processes (the same load: two cores kept at
// 100 %). Prints; asserts nothing.
// Run: npm run bench:stability -- [--runs 3] [--what suite|test|both] [--loads quiet,stressed] [--profiles P...]
//   [--project NAME...] [--out DIR]
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchArgs, InvalidArgumentError, Option, parseCount } from './args.ts';

type Verdicts = Map<string, string>;
interface Run {
  what: 'suite' | 'test';
  load: 'quiet' | 'stressed';
  index: number;
  seconds: number;
  meanLoad: number;
  verdicts: Verdicts;
}

const root = new URL('..', import.meta.url).pathname;

function startBurners(): { stop: () => void; name: string } {
  const hasStressNg = spawnSync('sh', ['-c', 'command -v stress-ng'], { stdio: 'ignore' }).status === 0;
  const children: ChildProcess[] = hasStressNg
    ? [spawn('stress-ng', ['--cpu', '2', '--quiet'], { stdio: 'ignore', detached: true })]
    : [0, 1].map(() => spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore', detached: true }));
  const stop = () => {
    for (const child of children) {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  };
  process.once('exit', stop);
  return { stop, name: hasStressNg ? 'stress-ng --cpu 2' : 'two busy node processes' };
}

/** Runs a command to its end, sampling the load average every 5 s; its exit code is not a failure here. */
async function timed(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ seconds: number; meanLoad: number }> {
  const started = Date.now();
  const samples: number[] = [];
  const sampler = setInterval(() => samples.push(loadavg()[0]), 5000);
  await new Promise<void>((resolve) => {
    const child = spawn(command, args, { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('exit', () => resolve());
  });
  clearInterval(sampler);
  const meanLoad = samples.length > 0 ? samples.reduce((a, b) => a + b, 0) / samples.length : loadavg()[0];
  return { seconds: (Date.now() - started) / 1000, meanLoad };
}

async function suiteVerdicts(dir: string, profiles: string[]): Promise<Omit<Run, 'what' | 'load' | 'index'>> {
  const time = await timed(process.execPath, ['bin/faultline.js', 'run', ...profiles, '--out', dir]);
  const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as {
    profiles: { name: string; verdict: string; pairing?: string }[];
  };
  const verdicts: Verdicts = new Map(report.profiles.map((p) => [p.name, p.verdict]));
  return { ...time, verdicts };
}

async function testVerdicts(dir: string, projects: string[]): Promise<Omit<Run, 'what' | 'load' | 'index'>> {
  const file = join(dir, 'vitest.json');
  const vitest = join(root, 'node_modules/vitest/vitest.mjs');
  const time = await timed(process.execPath, [
    vitest,
    'run',
    ...projects.flatMap((p) => ['--project', p]),
    '--reporter=json',
    `--outputFile=${file}`,
  ]);
  const report = JSON.parse(readFileSync(file, 'utf8')) as {
    testResults: { name: string; status: string; assertionResults: { fullName: string; status: string }[] }[];
  };
  const verdicts: Verdicts = new Map();
  for (const suite of report.testResults) {
    const path = suite.name.replace(root, '');
    // A file can fail with every test passed or skipped (a failed beforeAll): that is a verdict of its own.
    verdicts.set(`${path} (the file)`, suite.status);
    for (const test of suite.assertionResults) verdicts.set(`${path} > ${test.fullName}`, test.status);
  }
  return { ...time, verdicts };
}

/** Every name whose verdict is not the same in all runs, with the verdict of each run. */
function flips(runs: readonly Run[]): { name: string; seen: string[] }[] {
  const names = new Set(runs.flatMap((r) => [...r.verdicts.keys()]));
  return [...names]
    .map((name) => ({ name, seen: runs.map((r) => r.verdicts.get(name) ?? 'missing') }))
    .filter(({ seen }) => new Set(seen).size > 1)
    .sort((a, b) => a.name.localeCompare(b.name));
}

function counts(verdicts: Verdicts): string {
  const byVerdict = new Map<string, number>();
  for (const v of verdicts.values()) byVerdict.set(v, (byVerdict.get(v) ?? 0) + 1);
  return [...byVerdict].map(([v, n]) => `${n} ${v}`).join(', ');
}

function table(runs: readonly Run[], burner: string): string {
  const lines = [
    `| run | machine | verdicts | time | mean load (1 min) |`,
    `|---|---|---|---:|---:|`,
    ...runs.map(
      (r) =>
        `| ${r.what} ${r.load[0]}${r.index + 1} | ${r.load === 'stressed' ? `${burner} beside it` : 'quiet'} | ${counts(r.verdicts)} | ${r.seconds.toFixed(0)} s | ${r.meanLoad.toFixed(1)} |`,
    ),
  ];
  for (const what of ['suite', 'test'] as const) {
    const these = runs.filter((r) => r.what === what);
    if (these.length === 0) continue;
    const flipped = flips(these);
    lines.push('', `${what}: ${flipped.length} flip(s) across ${these.length} runs of ${these[0].verdicts.size}`);
    for (const f of flipped) lines.push(`- ${f.name}: ${f.seen.join(' / ')}`);
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  const { options } = benchArgs<{
    runs: number;
    what: 'suite' | 'test' | 'both';
    loads: string;
    out: string;
    profiles: string[];
    project: string[];
  }>('bench:stability', 'the same verdicts on a quiet and on a busy machine?', (c) =>
    c
      .option('--runs <n>', 'runs of each, quiet and stressed', parseCount, 3)
      .addOption(new Option('--what <what>', 'what to run').choices(['suite', 'test', 'both']).default('both'))
      .addOption(
        new Option('--loads <loads>', 'which machines, comma-separated: quiet, stressed')
          .default('quiet,stressed')
          .argParser((v) => {
            const loads = v.split(',');
            for (const l of loads)
              if (l !== 'quiet' && l !== 'stressed') throw new InvalidArgumentError(`not a load: ${l}`);
            return loads.join(',');
          }),
      )
      .option('--profiles <path...>', 'profiles for the suite runs (default: chaos-profiles/)', [])
      .option('--project <name...>', 'vitest projects for the test runs (default: all)', [])
      .option('--out <dir>', 'where the runs write', join(tmpdir(), `faultline-stability-${Date.now()}`)),
  );
  const loads = options.loads.split(',') as ('quiet' | 'stressed')[];
  const kinds = options.what === 'both' ? (['suite', 'test'] as const) : ([options.what] as const);
  const runs: Run[] = [];
  let burner = 'stress-ng --cpu 2';
  for (const what of kinds) {
    for (const load of loads) {
      for (let index = 0; index < options.runs; index++) {
        const dir = join(options.out, `${what}-${load}-${index + 1}`);
        mkdirSync(dir, { recursive: true });
        const burners = load === 'stressed' ? startBurners() : undefined;
        if (burners) burner = burners.name;
        process.stderr.write(`[stability] ${what} ${load} ${index + 1}/${options.runs} -> ${dir}\n`);
        try {
          const result =
            what === 'suite' ? await suiteVerdicts(dir, options.profiles) : await testVerdicts(dir, options.project);
          runs.push({ what, load, index, ...result });
        } finally {
          burners?.stop();
        }
      }
    }
  }
  const text = table(runs, burner);
  writeFileSync(join(options.out, 'stability.md'), `${text}\n`);
  process.stdout.write(`${text}\n\nwritten to ${join(options.out, 'stability.md')}\n`);
}

await main();
