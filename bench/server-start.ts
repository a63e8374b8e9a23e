// How long the reference server child takes from fork to listening (`ready` on its IPC channel), the set-up every
// profile pays at least once: this checkout's dist/bin/child-main.js beside other builds' (--root, e.g. a checkout
// or a copy of dist/ from an older commit, each with its package.json), forks taking turns so a noisy neighbour
// slows them all alike. Prints medians, the load average, and each build's ratio to the first; asserts nothing.
// Run: node bin/run-ts.js bench/server-start.ts [--runs 9] [--root DIR]...   (npm run build first)
import { fork } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { benchArgs, parseCount } from './args.ts';

const { options } = benchArgs<{ runs: number; root: string[] }>(
  'bench:server-start',
  "how long the reference server child takes from fork to listening, beside other builds'",
  (c) =>
    c
      .option('--runs <n>', 'forks of each build', parseCount, 9)
      .option(
        '--root <dir>',
        'another built checkout to compare (repeatable)',
        (v: string, earlier: string[]) => [...earlier, v],
        [],
      ),
);
const RUNS = options.runs;
const roots = ['.', ...options.root].map((r) => resolve(r));
const entries = roots.map((root) => join(root, 'dist/bin/child-main.js'));
for (const entry of entries) {
  if (!existsSync(entry)) {
    console.error(`server-start: ${entry}: no such file (expected a built checkout: npm run build)`);
    process.exit(2);
  }
}

/** One fork: ms from fork until the child says it listens; then it is shut down and awaited. */
function startOnce(entry: string): Promise<number> {
  const start = performance.now();
  const child = fork(entry, [], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  return new Promise((done, fail) => {
    let ms: number | undefined;
    child.on('message', (m: { type?: string }) => {
      if (m.type !== 'ready') return;
      ms = performance.now() - start;
      child.send({ type: 'shutdown' });
    });
    child.on('exit', (code) => (ms === undefined ? fail(new Error(`${entry} exited ${code} before ready`)) : done(ms)));
    child.send({ type: 'start', options: { seed: 7 } });
  });
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

const loadBefore = load();
for (const entry of entries) await startOnce(entry); // warm the file cache
const samples = entries.map(() => [] as number[]);
for (let i = 0; i < RUNS; i++) for (const [j, entry] of entries.entries()) samples[j].push(await startOnce(entry));
const first = median(samples[0]);
console.log(`server child fork to ready, median of ${RUNS} each, load ${loadBefore} -> ${load()}`);
for (const [j, root] of roots.entries()) {
  const m = median(samples[j]);
  console.log(
    `${root}  ${m.toFixed(0).padStart(6)} ms  ×${(m / first).toFixed(2)}  (min ${Math.min(...samples[j]).toFixed(0)}, max ${Math.max(...samples[j]).toFixed(0)})`,
  );
}
