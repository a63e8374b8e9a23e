// Flat cost from a thousand ops to a hundred thousand (a million with --nightly): a real `faultline run` of a
// no-fault closed-model profile at each size, each its own process, with every report written. Per size it prints
// the run's own ops/s, the peak RSS (getrusage maxRSS, written by an exit hook loaded through NODE_OPTIONS) of the
// harness and of the reference server's child process, and the bytes per op of the history on disk (history.jsonl,
// the run's record of every op; trace.jsonl beside it, which may stay readable). Beside each size, the bare SDK
// 1.32 pair (bench/bare-pair.mjs: one Client session, an echo server child, plain JavaScript) makes the same number
// of calls at the same concurrency; its rate and its client's and server's peaks are printed beside the harness's
// and beside each goal: what the SDK itself does on this Node. Then the goals of issue 27, each PASS or FAIL from
// the numbers of this same run. Throughput on a shared machine is indicative; RSS and bytes are not.
// `--samples DIR` also writes DIR/harness-<ops>.txt: the harness's process.memoryUsage() every 250 ms, each full
// collection with the heap it left, and when each report file appeared (workload and report phase apart); and
// DIR/server-<ops>-<pid>.txt: the heap each full collection of a child left, from which the server child's live set
// growth per op is printed (the slope of that heap over time, over the run's ops a second); DIR/bare-<ops>-<pid>.txt
// the same for the bare pair's client and server. It then prints the live set (the heap a full collection left) of
// the harness during its workload beside the bare SDK client's: what each process really keeps, where peak RSS is
// mostly how far V8 lets the heap grow between full collections (docs/scale.md).
// Run: npm run bench:scale [-- --sizes 1000,10000 --concurrency 64 --nightly --samples DIR]
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { benchArgs, parseCount, parseLevelList } from './args.ts';

const GOALS = { flatWithin: 0.15, peakMb: 200, bytesPerOp: 1024 } as const;
const FAULTLINE = fileURLToPath(new URL('../bin/faultline.js', import.meta.url));
const BARE_PAIR = fileURLToPath(new URL('./bare-pair.mjs', import.meta.url));
/** Every Node process of the run writes its own peak (KiB) to `<dir>/<pid>.maxrss` when it exits. */
const EXIT_HOOK = `data:text/javascript,${encodeURIComponent(
  "import { writeFileSync } from 'node:fs'; process.on('exit', () => { try { writeFileSync(process.env.FAULTLINE_BENCH_RSS_DIR + '/' + process.pid + '.maxrss', String(process.resourceUsage().maxRSS)); } catch {} });",
)}`;

/** The harness only (the run's `--out` is in its argv, the child's is not): samples to FAULTLINE_BENCH_SAMPLES. */
const SAMPLER = `data:text/javascript,${encodeURIComponent(`
import { appendFileSync, existsSync } from 'node:fs';
import { PerformanceObserver, constants } from 'node:perf_hooks';
const file = process.env.FAULTLINE_BENCH_SAMPLES, out = process.argv[process.argv.indexOf('--out') + 1];
if (file && process.argv.includes('--out')) {
  const t0 = Date.now(), mb = (b) => (b / 1048576).toFixed(1), seen = new Set();
  const line = (s) => appendFileSync(file, ((Date.now() - t0) / 1000).toFixed(2) + ' ' + s + '\\n');
  setInterval(() => {
    const m = process.memoryUsage();
    line('rss ' + mb(m.rss) + ' heapUsed ' + mb(m.heapUsed) + ' heapTotal ' + mb(m.heapTotal) + ' arrayBuffers ' + mb(m.arrayBuffers));
    for (const f of ${JSON.stringify(['report.json', 'report.html', 'trace.jsonl', 'history.jsonl'])})
      if (!seen.has(f) && existsSync(out + '/' + f)) { seen.add(f); line('file ' + f); }
  }, 250).unref();
  new PerformanceObserver((l) => { for (const e of l.getEntries())
    if (e.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) line('full-gc heapUsed ' + mb(process.memoryUsage().heapUsed)); }).observe({ entryTypes: ['gc'] });
} else if (file) {
  // A child (the reference server): the heap each full collection left, its live set, to DIR/server-<ops>-<pid>.txt.
  const child = process.env.FAULTLINE_BENCH_CHILD_SAMPLES + '-' + process.pid + '.txt', t0 = Date.now();
  new PerformanceObserver((l) => { for (const e of l.getEntries())
    if (e.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) appendFileSync(child, ((Date.now() - t0) / 1000).toFixed(2) + ' full-gc heapUsed ' + process.memoryUsage().heapUsed + '\\n'); }).observe({ entryTypes: ['gc'] });
}`)}`;

interface SizeResult {
  size: number;
  exitCode: number | null;
  ops: number;
  opsOk: number;
  seconds: number;
  opsPerSec: number;
  harnessMb: number;
  /** The largest of the run's child processes (the reference server). */
  serverMb: number;
  historyBytesPerOp: number;
  traceBytesPerOp: number;
  bare: BareResult;
  /** With --samples: the harness's live set during the workload. */
  harnessLive?: LiveSet;
  /** With --samples: the server child's live set (heap after each full collection), first and largest, MB. */
  serverLive?: { firstMb: number; maxMb: number; bytesPerOp: number; collections: number };
}

function profileText(ops: number, concurrency: number): string {
  return `name: run-scale
description: no faults, ${ops} ops at ${concurrency} in flight (bench/run-scale.ts)
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
const perOp = (file: string, ops: number) => (ops > 0 ? Math.round(statSync(file).size / ops) : Number.NaN);

interface Measured {
  pid: number;
  code: number | null;
  stdout: string;
  stderr: string;
  /** Peak RSS (KiB) of the process and of each of its Node children, by pid. */
  peaks: Map<string, number>;
}

/** Runs `node args` with the exit hook in every Node process it starts; stdout and stderr kept when piped. */
async function measured(
  args: string[],
  rssDir: string,
  env: Record<string, string> = {},
  stderr: 'inherit' | 'pipe' = 'inherit',
): Promise<Measured> {
  const { pid, code, stdout, errors } = await new Promise<{
    pid: number;
    code: number | null;
    stdout: string;
    errors: string;
  }>((resolve, reject) => {
    const proc = spawn(process.execPath, args, {
      stdio: ['ignore', 'pipe', stderr],
      env: {
        ...process.env,
        ...env,
        FAULTLINE_BENCH_RSS_DIR: rssDir,
        NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${EXIT_HOOK} ${env.NODE_OPTIONS ?? ''}`.trim(),
      },
    });
    let [out, err] = ['', ''];
    proc.stdout?.on('data', (d) => {
      out += d;
    });
    proc.stderr?.on('data', (d) => {
      err += d;
    });
    proc.on('error', reject);
    proc.on('close', (c) => resolve({ pid: proc.pid as number, code: c, stdout: out, errors: err }));
  });
  const peaks = new Map(
    readdirSync(rssDir).map((f) => [f.replace('.maxrss', ''), Number(readFileSync(join(rssDir, f), 'utf8'))]),
  );
  return { pid, code, stdout, stderr: errors, peaks };
}

/** The largest peak among the process's children (its server), and that child's pid. */
function largestChild({ pid, peaks }: Measured): { pid?: string; kib: number } {
  const [child] = [...peaks].filter(([p]) => p !== String(pid)).sort((a, b) => b[1] - a[1]);
  return child ? { pid: child[0], kib: child[1] } : { kib: Number.NaN };
}

interface BareResult {
  opsPerSec: number;
  errors: number;
  clientMb: number;
  serverMb: number;
  /** With --samples: the bare client's live set while it called. */
  clientLive?: LiveSet;
}

/** The bare SDK pair at the same size and concurrency; its stderr (the SDK's own warnings) shown only on failure. */
async function bareRun(size: number, concurrency: number, dir: string, samples?: string): Promise<BareResult> {
  const run = await measured(
    [BARE_PAIR, 'client', String(size), String(concurrency)],
    mkdtempSync(join(dir, `rss-bare-${size}-`)),
    // The bare client has no --out: the sampler takes it for a child and writes its collections (and its server's).
    samples
      ? {
          FAULTLINE_BENCH_SAMPLES: join(samples, `bare-${size}.txt`),
          FAULTLINE_BENCH_CHILD_SAMPLES: join(samples, `bare-${size}`),
          NODE_OPTIONS: `--import=${SAMPLER}`,
        }
      : {},
    'pipe',
  );
  if (run.code !== 0) throw new Error(`bench/bare-pair.mjs exited ${run.code}:\n${run.stderr.slice(-2000)}`);
  const { ops, errors, seconds } = JSON.parse(run.stdout);
  const clientLive = samples && liveSetOf(join(samples, `bare-${size}-${run.pid}.txt`), 'bytes');
  return {
    opsPerSec: Math.round((ops / seconds) * 10) / 10,
    errors,
    clientMb: mb(run.peaks.get(String(run.pid)) ?? Number.NaN),
    serverMb: mb(largestChild(run).kib),
    ...(clientLive && { clientLive }),
  };
}

/** What a process kept alive: the heap each full collection left, median and largest (MB), and how many. */
interface LiveSet {
  medianMb: number;
  maxMb: number;
  collections: number;
}

/** The harness's samples give the heap in MB (toFixed(1)), a child's in bytes. */
type HeapUnit = 'mb' | 'bytes';

/**
 * The heap each full collection left, from a samples file, as [seconds, bytes], up to the first report file the
 * harness wrote (its workload; the report's passes are another phase; a child's file has no such line). Undefined
 * when the file is missing.
 */
function fullCollections(file: string, unit: HeapUnit): [number, number][] | undefined {
  let lines: string[];
  try {
    lines = readFileSync(file, 'utf8').trim().split('\n');
  } catch {
    return undefined;
  }
  const end = lines.findIndex((l) => l.includes(' file '));
  return (end === -1 ? lines : lines.slice(0, end))
    .map((l) => l.split(' '))
    .filter((f) => f[1] === 'full-gc')
    .map((f) => [Number(f[0]), Number(f[3]) * (unit === 'mb' ? 1048576 : 1)]);
}

const toMb = (bytes: number) => Math.round((bytes / 1048576) * 10) / 10;

/** The live set from a samples file: median and largest heap after a full collection. Undefined without one. */
function liveSetOf(file: string, unit: HeapUnit): LiveSet | undefined {
  const heaps = (fullCollections(file, unit) ?? []).map((p) => p[1]).sort((a, b) => a - b);
  if (heaps.length === 0) return undefined;
  return { medianMb: toMb(heaps[heaps.length >> 1]), maxMb: toMb(heaps.at(-1)!), collections: heaps.length };
}

async function runSize(size: number, concurrency: number, dir: string, samples?: string): Promise<SizeResult> {
  const profile = join(dir, `run-scale-${size}.yaml`);
  writeFileSync(profile, profileText(size, concurrency));
  const out = join(dir, `out-${size}`);
  const start = performance.now();
  const run = await measured(
    [FAULTLINE, 'run', profile, '--out', out, '--allow-large'],
    mkdtempSync(join(dir, `rss-${size}-`)),
    samples
      ? {
          FAULTLINE_BENCH_SAMPLES: join(samples, `harness-${size}.txt`),
          FAULTLINE_BENCH_CHILD_SAMPLES: join(samples, `server-${size}`),
          NODE_OPTIONS: `--import=${SAMPLER}`,
        }
      : {},
  );
  const seconds = (performance.now() - start) / 1000;
  const server = largestChild(run);
  const m = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')).profiles[0].metrics;
  return {
    size,
    exitCode: run.code,
    ops: m.ops,
    opsOk: m.opsOk,
    seconds,
    opsPerSec: m.throughputOpsPerSec,
    harnessMb: mb(run.peaks.get(String(run.pid)) ?? Number.NaN),
    serverMb: mb(server.kib),
    historyBytesPerOp: perOp(join(out, 'history.jsonl'), m.ops),
    traceBytesPerOp: perOp(join(out, 'trace.jsonl'), m.ops),
    bare: await bareRun(size, concurrency, dir, samples),
    ...(samples && { harnessLive: liveSetOf(join(samples, `harness-${size}.txt`), 'mb') }),
    ...(samples && server.pid && liveOf(join(samples, `server-${size}-${server.pid}.txt`), m.throughputOpsPerSec)),
  };
}

/**
 * The child's live set per op, load-independent: the least-squares slope of the heap each full collection left
 * (bytes a second), over the run's ops a second. Fitted from a quarter of the way to the largest (the end of the
 * workload; the child idles after): the first quarter holds start-up and the bounded event store filling (10,000
 * events, two an op). The heap is read in the collection's observer, young generation included: a noisy figure
 * at 10,000 ops (a few collections), a slope at 100,000. Undefined with fewer than three points to fit.
 */
function liveOf(file: string, opsPerSec: number): Pick<SizeResult, 'serverLive'> {
  const points = fullCollections(file, 'bytes');
  if (!points || points.length === 0) return {};
  const top = points.reduce((best, p, i) => (p[1] >= points[best][1] ? i : best), 0);
  const fit = points.slice(0, top + 1).filter((p) => p[0] >= points[top][0] / 4);
  if (fit.length < 3 || !(opsPerSec > 0)) return {};
  const n = fit.length;
  const [mt, mv] = [fit.reduce((a, p) => a + p[0], 0) / n, fit.reduce((a, p) => a + p[1], 0) / n];
  const slope = fit.reduce((a, p) => a + (p[0] - mt) * (p[1] - mv), 0) / fit.reduce((a, p) => a + (p[0] - mt) ** 2, 0);
  return {
    serverLive: {
      firstMb: toMb(points[0][1]),
      maxMb: toMb(points[top][1]),
      bytesPerOp: Math.round(slope / opsPerSec),
      collections: points.length,
    },
  };
}

const verdict = (pass: boolean) => (pass ? 'PASS' : 'FAIL');

/** The goals, each from this run's numbers; a goal with nothing to compare is n/a, never a pass. */
function goals(results: SizeResult[]): { line: string; pass: boolean | null }[] {
  const at = (size: number) => results.find((r) => r.size === size);
  const [ten, hundred] = [at(10_000), at(100_000)];
  const ratioOf = (rate: (r: SizeResult) => number) =>
    ten && hundred && rate(ten) > 0 ? rate(hundred) / rate(ten) : null;
  const [ratio, bareRatio] = [ratioOf((r) => r.opsPerSec), ratioOf((r) => r.bare.opsPerSec)];
  const pct = (r: number | null) => (r === null ? 'n/a' : `${(r * 100).toFixed(1)} %`);
  const rates =
    ratio === null ? 'n/a (run both sizes)' : `100k at ${pct(ratio)} of 10k (bare SDK pair: ${pct(bareRatio)})`;
  const peaks = results.flatMap((r) => [r.harnessMb, r.serverMb]);
  const barePeaks = results.flatMap((r) => [r.bare.clientMb, r.bare.serverMb]);
  const bytes = results.map((r) => r.historyBytesPerOp);
  const under = (values: number[], limit: number) => (values.length === 0 ? null : values.every((v) => v < limit));
  return [
    {
      line: `ops/s at 100k within ${GOALS.flatWithin * 100} % of 10k: ${rates}`,
      pass: ratio === null ? null : Math.abs(ratio - 1) <= GOALS.flatWithin,
    },
    {
      // The goal above is two-sided; a faster long run is start-up spread over more ops, not a cost that grows.
      line: `ops/s at 100k not below ${100 - GOALS.flatWithin * 100} % of 10k (cost per op does not grow): ${rates}`,
      pass: ratio === null ? null : ratio >= 1 - GOALS.flatWithin,
    },
    {
      line: `peak RSS < ${GOALS.peakMb} MB per process at every size: max ${Math.max(...peaks)} MB (bare SDK pair: max ${Math.max(...barePeaks)} MB)`,
      pass: under(peaks, GOALS.peakMb),
    },
    {
      line: `history on disk < ${GOALS.bytesPerOp} B per op at every size: max ${Math.max(...bytes)} B`,
      pass: under(bytes, GOALS.bytesPerOp),
    },
  ];
}

const { options } = benchArgs<{ sizes: number[]; nightly?: true; concurrency: number; samples?: string }>(
  'bench:scale',
  'faultline run at growing sizes beside the bare SDK pair: ops/s, peak RSS and history bytes per op',
  (c) =>
    c
      .option(
        '--sizes <list>',
        'op counts, comma-separated',
        (v: string) => parseLevelList(v, 'op counts', 1_000_000, false),
        [1000, 10_000, 100_000],
      )
      .option('--nightly', 'also 1,000,000 ops')
      .option('--concurrency <n>', 'ops in flight', parseCount, 64)
      .option(
        '--samples <dir>',
        "also write the processes' memory samples and full collections there, and print their live sets",
      ),
);
const sizes = [...options.sizes];
if (options.nightly && !sizes.includes(1_000_000)) sizes.push(1_000_000);
const { concurrency } = options;
const dir = mkdtempSync(join(tmpdir(), 'faultline-bench-run-scale-'));
const samplesDir = options.samples;
if (samplesDir) mkdirSync(samplesDir, { recursive: true });
try {
  console.log(
    `faultline run, no faults, ${concurrency} in flight; load average at start ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  const results: SizeResult[] = [];
  console.log('ops       exit  ok        seconds  ops/s    harness MB  server MB  history B/op  trace B/op  load 1m');
  for (const size of sizes) {
    const r = await runSize(size, concurrency, dir, samplesDir);
    results.push(r);
    console.log(
      `${String(r.ops).padEnd(9)} ${String(r.exitCode).padEnd(5)} ${String(r.opsOk).padEnd(9)} ${r.seconds.toFixed(1).padEnd(8)} ${String(r.opsPerSec).padEnd(8)} ${String(r.harnessMb).padEnd(11)} ${String(r.serverMb).padEnd(10)} ${String(r.historyBytesPerOp).padEnd(13)} ${String(r.traceBytesPerOp).padEnd(11)} ${loadavg()[0].toFixed(2)}`,
    );
    const { bare } = r;
    console.log(
      `  bare SDK pair, ${r.size} echo calls at ${concurrency} in flight (one session): ${bare.opsPerSec} ops/s, client ${bare.clientMb} MB, server ${bare.serverMb} MB, ${bare.errors} errors; harness peak ${(r.harnessMb / bare.clientMb).toFixed(2)}x the bare client's`,
    );
    if (samplesDir) {
      const shown = (l: LiveSet | undefined) =>
        l
          ? `median ${l.medianMb} MB, largest ${l.maxMb} MB over ${l.collections} full collections`
          : 'n/a (no full collection)';
      console.log(
        `  live set while calling (heap after a full collection): harness ${shown(r.harnessLive)}; bare SDK client ${shown(bare.clientLive)}`,
      );
    }
    const live = r.serverLive;
    if (live)
      console.log(
        `  server child live set (heap after a full collection): ${live.firstMb} MB first, ${live.maxMb} MB largest, ${live.collections} collections, growth ${live.bytesPerOp} B/op (fitted from a quarter of the way)`,
      );
    else if (samplesDir) console.log('  server child live set: n/a (fewer than three full collections to fit)');
  }
  console.log('');
  for (const g of goals(results)) console.log(`${g.pass === null ? 'n/a ' : verdict(g.pass)}  ${g.line}`);
  if (results.some((r) => r.ops !== r.size)) {
    console.log('FAIL  a run did not complete every op');
    process.exitCode = 1;
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
