// Peak resident memory of a 100,000-op run's records, two ways, side by side in one run: every record whole in memory
// (Recorder + computeMetrics over the whole History) against the path `faultline run` takes (the Recorder writing
// each record whole to its record log, core/record-log.ts, and keeping none in memory, then the same computeMetrics). Each path runs in a
// fresh child process so one's heap never inflates the other's peak. The records are synthetic but shaped like a
// real run's (search results and payment receipts as model-visible text, 1 in 8 ops retried, timeouts, error
// codes). Prints numbers and whether the streaming path stays under the 300 MB budget; asserts nothing else.
// Run: npm run bench:memory [-- --ops 100000]
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type { AttemptRecord, OpRecord } from '../src/core/history.ts';
import { computeMetrics } from '../src/measure/metrics.ts';
import type { Metrics } from '../src/measure/types.ts';
import { Recorder } from '../src/run/recorder.ts';
import { benchArgs, hidden, parseChoice, parseWhole } from './args.ts';

const BUDGET_MB = 300;
const SAMPLE_EVERY = 1000;

type Path = 'arrays' | 'stream';

interface PathResult {
  path: Path;
  ops: number;
  attempts: number;
  p50: number | null;
  p99: number | null;
  errorsByCode: Record<string, number>;
  /** Ops the record log wrote whole (stream path): must equal the ops recorded. */
  spilled?: number;
  peakRssMb: number;
  /** The largest process.memoryUsage().rss sampled every SAMPLE_EVERY ops. */
  sampledPeakMb: number;
  seconds: number;
}

const PATHS = ['arrays', 'stream'] as const;
const { options } = benchArgs<{ ops: number; path?: (typeof PATHS)[number] }>(
  'bench:memory',
  "peak resident memory of a run's records, whole in memory against the record log faultline run writes",
  (c) =>
    c.option('--ops <n>', 'synthetic ops', parseWhole, 100_000).addOption(hidden('--path <path>', parseChoice(PATHS))),
);

/** Deterministic pseudo-random numbers (both paths see the very same records). */
function lcg(seed: number): () => number {
  let s = seed;
  return () => {
    s = (Math.imul(s, 1103515245) + 12345) & 0x7fffffff;
    return s / 0x80000000;
  };
}

/** A search page as the model sees it: its own text per op, as in a real run (no shared strings). */
function results(op: number): string {
  return Array.from({ length: 10 }, (_, i) => `doc-${op * 10 + i} Runbook: refunds, retries and latency (${i})`).join(
    '\n',
  );
}

/** Op i's attempts (in order) and then the op, as the client policy and the workload record them. */
function* syntheticOps(count: number): Generator<{ attempts: AttemptRecord[]; op: OpRecord }> {
  const rand = lcg(42);
  const t0 = 1_700_000_000_000;
  for (let i = 0; i < count; i++) {
    const opId = `op-${String(i).padStart(6, '0')}`;
    const pay = rand() < 0.4;
    const retried = rand() < 0.125;
    const startMs = t0 + i * 10;
    const attempts: AttemptRecord[] = [];
    let t = startMs;
    for (let n = 1; n <= (retried ? 2 + Math.floor(rand() * 2) : 1); n++) {
      const last = !retried || n > 1;
      const dur = last ? 5 + rand() * 40 : 200 + rand() * 1800;
      attempts.push({
        opId,
        attempt: n,
        startMs: t,
        endMs: t + dur,
        ok: last,
        ...(last
          ? { next: 'done', resultBytes: 900, visible: pay ? `Payment ${opId} succeeded (ch_${i}).` : results(i) }
          : {
              category: 'DEPENDENCY',
              errorCode: 'DEPENDENCY.TIMEOUT',
              retryable: true,
              uncertain: pay,
              next: 'retry',
              message: `DEPENDENCY.TIMEOUT: the payments service did not answer within 2000 ms (${opId}/${n})`,
              visible: `DEPENDENCY.TIMEOUT: the payments service did not answer within 2000 ms (${opId}/${n})`,
            }),
      });
      t += dur + 50;
    }
    yield {
      attempts,
      op: {
        opId,
        tool: pay ? 'create_payment' : 'search_documents',
        sideEffecting: pay,
        startMs,
        endMs: t,
        outcome: 'ok',
        attempts: attempts.length,
        failedAttempts: attempts.length - 1,
        lookups: 0,
        visible: pay ? `Payment ${opId} succeeded (ch_${i}).` : results(i),
        ...(pay && { argsKey: `cus_${i}|${100 + i}|USD` }),
      },
    };
  }
}

const mb = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10;

/** Where a path puts each record as it arrives, and how it gets the metrics at the end. */
interface Sink {
  attempt(a: AttemptRecord): void;
  op(o: OpRecord): void;
  /** The metrics, and (stream path) how many ops the record log wrote. */
  finish(): { metrics: Metrics; spilled?: number };
}

function arraysSink(): Sink {
  const recorder = new Recorder();
  return {
    attempt: recorder.attempt,
    op: (o) => recorder.op(o),
    finish: () => ({ metrics: computeMetrics(recorder.history([], [])) }),
  };
}

function streamSink(): Sink {
  const recorder = new Recorder({ spill: true });
  return {
    attempt: recorder.attempt,
    op: (o) => recorder.op(o),
    finish: () => ({ metrics: computeMetrics(recorder.history([], [])), spilled: recorder.log.count }),
  };
}

function runPath(path: Path, count: number): PathResult {
  const start = performance.now();
  let sampled = process.memoryUsage().rss;
  const sample = () => {
    const rss = process.memoryUsage().rss;
    if (rss > sampled) sampled = rss;
  };
  const sink = path === 'arrays' ? arraysSink() : streamSink();
  let i = 0;
  for (const { attempts, op } of syntheticOps(count)) {
    for (const a of attempts) sink.attempt(a);
    sink.op(op);
    if (++i % SAMPLE_EVERY === 0) sample();
  }
  const { metrics, spilled } = sink.finish();
  sample();
  return {
    path,
    ops: metrics.ops,
    attempts: metrics.attempts,
    p50: metrics.latencyMs.p50,
    p99: metrics.latencyMs.p99,
    errorsByCode: metrics.errorsByCode,
    ...(spilled !== undefined && { spilled }),
    peakRssMb: mb(process.resourceUsage().maxRSS * 1024),
    sampledPeakMb: mb(sampled),
    seconds: (performance.now() - start) / 1000,
  };
}

function child(path: Path, count: number): Promise<PathResult> {
  const runTs = fileURLToPath(new URL('../bin/run-ts.js', import.meta.url));
  const self = fileURLToPath(import.meta.url);
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [runTs, self, '--path', path, '--ops', String(count)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    proc.stdout.on('data', (d) => {
      out += d;
    });
    proc.on('error', reject);
    proc.on('close', (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`${path} path exited with ${code}`)),
    );
  });
}

const count = options.ops;
if (options.path) {
  process.stdout.write(JSON.stringify(runPath(options.path, count)));
} else {
  console.log(`${count} synthetic ops with their attempts, each path in its own process (peak = getrusage maxRSS)`);
  const idle = await child('stream', 0);
  console.log(`the same process with 0 ops (Node + tsx + modules): ${idle.peakRssMb} MB\n`);
  const results: PathResult[] = [];
  for (const path of PATHS) results.push(await child(path, count));
  console.log('path     ops      attempts  p50 ms  p99 ms  peak RSS MB  sampled MB  seconds');
  for (const r of results) {
    console.log(
      `${r.path.padEnd(8)} ${String(r.ops).padEnd(8)} ${String(r.attempts).padEnd(9)} ${String(r.p50).padEnd(7)} ${String(r.p99).padEnd(7)} ${String(r.peakRssMb).padEnd(12)} ${String(r.sampledPeakMb).padEnd(11)} ${r.seconds.toFixed(1)}`,
    );
  }
  const [arrays, stream] = results;
  const same =
    arrays.ops === stream.ops &&
    arrays.attempts === stream.attempts &&
    arrays.p50 === stream.p50 &&
    arrays.p99 === stream.p99 &&
    JSON.stringify(arrays.errorsByCode) === JSON.stringify(stream.errorsByCode);
  console.log(`\nsame counts and percentiles on both paths: ${same ? 'yes' : 'NO'}`);
  console.log(`record log wrote: ${stream.spilled} ops whole (recorded: ${stream.ops})`);
  console.log(
    `streaming path peak ${stream.peakRssMb} MB: ${stream.peakRssMb < BUDGET_MB ? 'under' : 'OVER'} the ${BUDGET_MB} MB budget (arrays path: ${arrays.peakRssMb} MB)`,
  );
  if (!same || stream.peakRssMb >= BUDGET_MB) process.exitCode = 1;
}
