// Peak resident memory of a real `faultline run` (environment, embedded Toxiproxy, reference server, ledger, every
// report written), a big closed-model no-fault profile, in several ways side by side, each its own `faultline run`
// process; its peak is getrusage maxRSS, written by an exit hook (NODE_OPTIONS --import) in that process and in the
// reference server's child process. Paths: `kept` is what a run over the size caps does by itself (the heap keeper
// on, core/heap-keeper.ts; it prints the keeper's own count of full collections and their time), `spill` the same
// with the keeper off (`--no-low-memory`), `memory` the records kept whole in memory too (FAULTLINE_HISTORY=memory).
// Prints the peaks, the op count, the wall time and the run's own ops/s; the reports of every path must show the
// same op counts, and each process's peak against the 300 MB budget. Asserts nothing else.
// Run: npm run bench:run-memory [-- --ops 100000 --concurrency 64 --paths kept,spill,memory]
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const BUDGET_MB = 300;
const FAULTLINE = fileURLToPath(new URL('../bin/faultline.js', import.meta.url));
/** Every Node process of the run writes its own peak (KiB) to `<dir>/<pid>.maxrss` when it exits. */
const EXIT_HOOK = `data:text/javascript,${encodeURIComponent(
  "import { writeFileSync } from 'node:fs'; process.on('exit', () => { try { writeFileSync(process.env.FAULTLINE_BENCH_RSS_DIR + '/' + process.pid + '.maxrss', String(process.resourceUsage().maxRSS)); } catch {} });",
)}`;

type Path = 'spill' | 'memory' | 'kept';

interface PathResult {
  path: Path;
  exitCode: number | null;
  ops: number;
  opsOk: number;
  seconds: number;
  opsPerSec: number;
  /** The `faultline run` process. */
  peakMb: number;
  /** The largest of its child processes (the reference server). */
  childPeakMb: number;
}

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

function profileText(ops: number, concurrency: number): string {
  return `name: run-memory
description: no faults, ${ops} ops at ${concurrency} in flight (bench/run-memory.ts)
seed: 7
duration: 60s
client:
  policy: resilient
  attemptTimeoutMs: 10000
  deadlineMs: 30000
workload:
  concurrency: ${concurrency}
  ops: ${ops}
  mix:
    - tool: create_payment
      weight: 3
      args:
        customer_id: cus_{op}
        amount_cents: { int: [100, 50000] }
        currency: { pick: [USD, EUR, GBP] }
    - tool: search_documents
      weight: 2
      args:
        query: { pick: [invoice, refund, shipping, contract] }
        page_size: 10
expect:
  - error_rate == 0
  - duplicate_effects == 0
  - lost_effects == 0
`;
}

const mb = (kib: number) => Math.round((kib / 1024) * 10) / 10;

async function runPath(path: Path, ops: number, dir: string): Promise<PathResult> {
  const profile = join(dir, `run-memory-${ops}.yaml`);
  writeFileSync(profile, profileText(ops, concurrency));
  const out = join(dir, `out-${path}-${ops}`);
  const rssDir = mkdtempSync(join(dir, `rss-${path}-`));
  const start = performance.now();
  const { pid, code } = await new Promise<{ pid: number; code: number | null }>((resolve, reject) => {
    const proc = spawn(process.execPath, [FAULTLINE, 'run', profile, '--out', out, '--allow-large'], {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: {
        ...process.env,
        FAULTLINE_HISTORY: path === 'memory' ? 'memory' : 'spill',
        FAULTLINE_HEAP_KEEPER: path === 'kept' ? 'report' : 'off',
        FAULTLINE_BENCH_RSS_DIR: rssDir,
        NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${EXIT_HOOK}`.trim(),
      },
    });
    proc.on('error', reject);
    proc.on('close', (c) => resolve({ pid: proc.pid as number, code: c }));
  });
  const seconds = (performance.now() - start) / 1000;
  const peaks = Object.fromEntries(
    readdirSync(rssDir).map((f) => [f.replace('.maxrss', ''), Number(readFileSync(join(rssDir, f), 'utf8'))]),
  );
  const children = Object.entries(peaks).filter(([p]) => p !== String(pid));
  const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
  const m = report.profiles[0].metrics;
  return {
    path,
    exitCode: code,
    ops: m.ops,
    opsOk: m.opsOk,
    seconds,
    opsPerSec: m.throughputOpsPerSec,
    peakMb: mb(peaks[String(pid)] ?? Number.NaN),
    childPeakMb: mb(Math.max(0, ...children.map(([, kib]) => kib))),
  };
}

const ops = Number(arg('ops', '100000'));
const concurrency = Number(arg('concurrency', '64'));
const paths = arg('paths', 'kept,spill').split(',') as Path[];
const dir = mkdtempSync(join(tmpdir(), 'faultline-bench-run-memory-'));
try {
  console.log(
    `faultline run, ${ops} ops at ${concurrency} in flight, no faults; peak = getrusage maxRSS of each process`,
  );
  const idle = await runPath('spill', 1, dir);
  console.log(`the same run with 1 op (Node, tsx, the SDK, the environment): ${idle.peakMb} MB`);
  const results: PathResult[] = [];
  for (const path of paths) results.push(await runPath(path, ops, dir));
  console.log('\npath    exit  ops      ok       seconds  ops/s    peak RSS MB  server child MB');
  for (const r of results) {
    console.log(
      `${r.path.padEnd(7)} ${String(r.exitCode).padEnd(5)} ${String(r.ops).padEnd(8)} ${String(r.opsOk).padEnd(8)} ${r.seconds.toFixed(1).padEnd(8)} ${String(r.opsPerSec).padEnd(8)} ${String(r.peakMb).padEnd(12)} ${r.childPeakMb}`,
    );
  }
  // Each process on its own: a bring-your-own target has no reference server child, only the harness.
  const against = (mb: number) => (mb < BUDGET_MB ? 'under' : 'OVER');
  for (const r of results) {
    console.log(
      `${r.path}: faultline run ${r.peakMb} MB (${against(r.peakMb)}), server child ${r.childPeakMb} MB (${against(r.childPeakMb)}), against the ${BUDGET_MB} MB budget`,
    );
  }
  if (results.some((r) => r.ops !== ops)) {
    console.log('a run did not complete every op');
    process.exitCode = 1;
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
