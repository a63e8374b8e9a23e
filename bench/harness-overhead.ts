// What the harness itself costs next to the bare MCP SDK, side by side in one run, at concurrency 1 and 16:
//   bare:        an SDK 1.32 Client per worker (one session each) calling `echo` on an SDK 1.32 McpServer child
//                (bench/bare-pair.mjs: Streamable HTTP on 127.0.0.1, stateful, one McpServer per session, no event
//                store).
//   harness:     runProfile() on a no-fault closed-model profile whose target is that same echo server as a
//                bring-your-own `kind: http` target: Faultline's real client stack (resilient policy, attempt
//                records, classification, edge fetch chain, tracing, Recorder history) and workload driver, straight
//                to the server as every run with no fault on the link is, ledger-less (an http target has none),
//                report at the end.
//   harness-proxied: the same, with the MCP link through the embedded Toxiproxy proxy, as a run has it when its
//                profile puts network faults on the link (a run without any talks to the server straight): what the
//                proxy's hop costs, beside the harness without it.
//   bare-one-session: (c=16 only; at c=1 it is `bare`) the bare pair with ONE SDK Client session that every worker
//                calls through, as a run has one session for all its workers: how much of the harness's distance to
//                `bare` is that session model rather than the harness's own work.
//   bare-ref:    a bare SDK 1.32 Client per worker on the reference server child (started as a run starts it, its
//                ledger pushed over IPC to the bench process), calling the default mix's planned ops in order.
//   harness-ref: the same harness against its own reference server child with the default mix (baseline.yaml's:
//                payments, notifications, search through the mocked dependency world, every effect pushed to the
//                harness's ledger over IPC): the server capacity reviews use, beside the bare client on it.
// Every side is a client process plus a server child; sides alternate over several rounds. A side's rate is the
// same on every side: ops that ended after its warm-up (the first op's end plus --warmup seconds), over the time from
// the first such op's end to the last's. CPU per op of each process (client, server) comes from /proc over the same
// stretch: load inflates it alike on every side, where a wall-clock rate says how busy the machine was. Each ratio is
// taken per round (its sides ran back to back) and printed as min / median / max; a goal is decided by the median
// and called settled when every round falls on the same side of it. Goals: the harness >= 80% of bare at both
// concurrencies, by rate and by CPU-bound rate (1000 / CPU ms per op of the pair's busier process); the reference
// server under harness-ref saturates a core (1000 / its CPU ms per op) at >= 80% of the bare pair's CPU-bound rate.
// Run: npm run bench:overhead [-- --rounds 5 --seconds 3 --warmup 1 --cpu-prof DIR]
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join, relative } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { benchArgs, hidden, parseChoice, parseCount, parsePositive, parseSeconds } from './args.ts';
import { startEchoServer } from './bare-pair.mjs';
import { buildMeasured, shippedModule } from './shipped.ts';

const SELF = fileURLToPath(import.meta.url);
const REPO = fileURLToPath(new URL('..', import.meta.url));
const RUN_TS = join(REPO, 'bin/run-ts.js');
const ECHO_ARGS = { text: 'hello' };
const GOAL = 0.8;
const CONCURRENCIES = [1, 16];
/** How often a side reads /proc for its CPU: rarely enough that reading it costs either side little. */
const SAMPLE_MS = 250;
const SIDES = ['bare', 'bare-one-session', 'harness', 'harness-proxied', 'bare-ref', 'harness-ref'] as const;
type Side = (typeof SIDES)[number];
/** The sides run at a concurrency: one session shared by one worker is the bare pair itself. */
const sidesAt = (concurrency: number): readonly Side[] =>
  concurrency > 1 ? SIDES : SIDES.filter((s) => s !== 'bare-one-session');

const { options } = benchArgs<{
  rounds: number;
  seconds: number;
  warmup: number;
  cpuProf?: string;
  side?: Side;
  concurrency: number;
}>('bench:overhead', 'the harness beside the bare MCP SDK, side by side, at concurrency 1 and 16', (c) =>
  c
    .option('--rounds <n>', 'rounds per side', parseCount, 5)
    .option('--seconds <s>', 'measured seconds per round', parsePositive, 3)
    .option('--warmup <s>', 'seconds each side runs before its measured stretch', parseSeconds, 1)
    .option('--cpu-prof <dir>', 'also write CPU profiles of every side there, and print their top self time')
    .addOption(hidden('--side <side>', parseChoice(SIDES)))
    .addOption(hidden('--concurrency <n>', parseCount).default(1)),
);
/** Seconds each side runs before its measured stretch (OpMeter); the orchestrator passes it on to every side. */
const WARMUP_S = options.warmup;

interface SideResult {
  side: Side;
  concurrency: number;
  ops: number;
  errors: number;
  /** Null when fewer than two ops ended (nothing to measure). */
  opsPerSec: number | null;
  /** The measured stretch on CLOCK_MONOTONIC in µs (what V8 cpuprofile times use), to leave start-up out. */
  windowUs: [number, number];
  /** CPU (user + system) per op of the client process, from the first measured op's end to the last sample. */
  clientCpuMsPerOp: number | null;
  /** The same of the server child (and any standby child). */
  serverCpuMsPerOp: number | null;
  /**
   * Write and read system calls per op, [client, server], from /proc/PID/io over the same stretch: on loopback a
   * socket write that wakes the peer is where much of a call's CPU goes, and the harness's proxy adds writes.
   */
  syscallsPerOp: { writes: [number | null, number | null]; reads: [number | null, number | null] };
}

const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

/** The processes whose CPU an op costs besides this one: its children (the server), found once. */
function childProcesses(): number[] {
  const children: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === process.pid) children.push(Number(name));
    } catch {}
  }
  return children;
}

/** utime + stime of these processes in ms (/proc stat fields 14 and 15, in USER_HZ = 100 ticks per second). */
function cpuMs(pids: readonly number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {}
  }
  return ticks * 10;
}

/**
 * Read and write system calls of these processes so far (/proc/PID/io syscr, syscw; every thread counted), or null
 * when none of them could be read (no figure, never a 0 that reads as free).
 */
function syscalls(pids: readonly number[]): { reads: number; writes: number } | null {
  const total = { reads: 0, writes: 0 };
  let read = false;
  for (const pid of pids) {
    try {
      const io = readFileSync(`/proc/${pid}/io`, 'utf8');
      const reads = /syscr: (\d+)/.exec(io)?.[1];
      const writes = /syscw: (\d+)/.exec(io)?.[1];
      if (reads === undefined || writes === undefined) continue;
      total.reads += Number(reads);
      total.writes += Number(writes);
      read = true;
    } catch {}
  }
  return read ? total : null;
}

/**
 * Counts ops as they end: the rate from the first op's end after the warm-up to the last op's end, and CPU per op
 * between that op's end and the last /proc sample (read at most every SAMPLE_MS: reading it on every op showed up in
 * the profile). Ops ending in the warm-up (JIT compiling on background threads, whose CPU counts, pools filling) are
 * left out: under load a round holds few ops, and start-up work would weigh on each of them.
 */
class OpMeter {
  private children: number[] = [];
  /** When the first op ended (the warm-up runs from it), null before. */
  private warmFrom: number | null = null;
  private ops = 0;
  private firstEnd = 0;
  private lastEnd = 0;
  private fromUs = 0;
  /** CPU ms of [this process, its children] at the first measured op's end and at the last sample. */
  private cpuFirst = [0, 0];
  private cpuLast = [0, 0];
  /** System calls of [this process, its children] at the same two moments. */
  private ioFirst = [syscalls([]), syscalls([])];
  private ioLast = [syscalls([]), syscalls([])];
  private opsAtLast = 0;
  private sampledAt = 0;

  constructor(private readonly warmupMs: number) {}

  opDone(): void {
    const now = performance.now();
    this.warmFrom ??= now;
    if (now - this.warmFrom < this.warmupMs) return;
    if (this.ops === 0) {
      this.children = childProcesses();
      this.cpuFirst = this.cpu();
      this.ioFirst = this.io();
      this.firstEnd = now;
      this.fromUs = monotonicUs();
      this.sampledAt = now;
    } else if (now - this.sampledAt >= SAMPLE_MS) {
      this.cpuLast = this.cpu();
      this.ioLast = this.io();
      this.opsAtLast = this.ops;
      this.sampledAt = now;
    }
    this.lastEnd = now;
    this.ops++;
  }

  private cpu(): number[] {
    return [cpuMs([process.pid]), cpuMs(this.children)];
  }

  private io() {
    return [syscalls([process.pid]), syscalls(this.children)];
  }

  result(side: Side, concurrency: number, errors: number): SideResult {
    const seconds = (this.lastEnd - this.firstEnd) / 1000;
    // No /proc sample after the first op: nothing measured, so no figure (never a 0 that reads as free).
    const perOp = (ms: number) => (this.opsAtLast > 0 ? Math.round((ms / this.opsAtLast) * 1000) / 1000 : null);
    const [own, children] = this.cpuLast.map((ms, i) => ms - this.cpuFirst[i]);
    const ioPerOp = (which: 'reads' | 'writes') =>
      [0, 1].map((i) => {
        const [first, last] = [this.ioFirst[i], this.ioLast[i]];
        return first && last ? perOp(last[which] - first[which]) : null;
      }) as [number | null, number | null];
    return {
      side,
      concurrency,
      ops: this.ops,
      errors,
      opsPerSec: seconds > 0 ? Math.round(((this.ops - 1) / seconds) * 100) / 100 : null,
      windowUs: [this.fromUs, this.fromUs + seconds * 1e6],
      clientCpuMsPerOp: perOp(own),
      serverCpuMsPerOp: perOp(children),
      syscallsPerOp: { writes: ioPerOp('writes'), reads: ioPerOp('reads') },
    };
  }
}

/** The median of the measured values; null when none was measured. */
function median(measured: (number | null)[]): number | null {
  const sorted = measured.filter((v): v is number => v !== null).sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Runs `use` against a fresh echo server child (bench/bare-pair.mjs); SIGTERM after, so --cpu-prof writes out. */
async function withEchoServer<T>(use: (url: string) => Promise<T>): Promise<T> {
  const server = await startEchoServer();
  try {
    return await use(server.url);
  } finally {
    await server.stop();
  }
}

// ---- the sides ----

/**
 * One SDK 1.32 Client (one session) per worker on `url`, each calling `next()`'s tool until `seconds` are up; with
 * `oneSession`, one Client every worker calls through.
 */
async function bareClients(
  side: Side,
  url: string,
  concurrency: number,
  seconds: number,
  next: () => { name: string; arguments: Record<string, unknown> },
  oneSession = false,
): Promise<SideResult> {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
  const clients = await Promise.all(
    Array.from({ length: oneSession ? 1 : concurrency }, async () => {
      const client = new Client({ name: 'bare-bench', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      return client;
    }),
  );
  const meter = new OpMeter(WARMUP_S * 1000);
  let errors = 0;
  const end = performance.now() + seconds * 1000;
  const worker = async (client: (typeof clients)[number]) => {
    while (performance.now() < end) {
      try {
        const result = await client.callTool(next());
        if (result.isError) errors++;
      } catch {
        errors++;
      }
      meter.opDone();
    }
  };
  await Promise.all(Array.from({ length: concurrency }, (_, i) => worker(clients[i % clients.length])));
  await Promise.all(clients.map((c) => c.close()));
  return meter.result(side, concurrency, errors);
}

const bareSide =
  (side: 'bare' | 'bare-one-session') =>
  (concurrency: number, seconds: number): Promise<SideResult> =>
    withEchoServer((url) =>
      bareClients(
        side,
        url,
        concurrency,
        seconds,
        () => ({ name: 'echo', arguments: ECHO_ARGS }),
        side === 'bare-one-session',
      ),
    );

/**
 * A bare SDK client on the reference server child the harness starts (its ledger pushed to this process over IPC,
 * as in a run), calling the default mix's planned ops in order, each side-effecting one with a key of its own.
 */
async function bareRefSide(concurrency: number, seconds: number): Promise<SideResult> {
  const { ServerHandle } = await import('../src/targets/child-target.ts');
  const { parseProfile } = await import('../src/profile/load.ts');
  const { buildPlan } = await import('../src/plan/plan.ts');
  const { traitsOf } = await import('../src/server/tools/catalog.ts');
  const profile = parseProfile(
    'bench:bare-ref',
    profileYaml('bare-ref', concurrency, seconds, 'target: { kind: reference }', defaultMix()),
  );
  const ops = buildPlan(profile.profile, 1).ops;
  const server = await ServerHandle.start({ seed: 1 });
  let index = 0;
  try {
    return await bareClients('bare-ref', server.url, concurrency, seconds, () => {
      const op = ops.at(index++);
      const keyArg = traitsOf(op.tool).idempotencyArg;
      return { name: op.tool, arguments: keyArg ? { ...op.args, [keyArg]: `${op.opId}-key` } : op.args };
    });
  } finally {
    await server.stop();
  }
}

/** A no-fault closed-model profile: `target` and `mix` are YAML lines. */
function profileYaml(side: Side, concurrency: number, seconds: number, target: string, mix: string[]): string {
  return [
    `name: overhead-${side}`,
    'description: No faults; the whole stack at a fixed concurrency, to measure what the harness costs.',
    'seed: 1',
    `duration: ${seconds}s`,
    target,
    'client: { policy: resilient, attemptTimeoutMs: 10000, deadlineMs: 20000 }',
    'workload:',
    `  concurrency: ${concurrency}`,
    '  mix:',
    ...mix.map((line) => `    ${line}`),
  ].join('\n');
}

/** runProfile on profileYaml's profile; `proxiedLink`: the MCP link through the embedded proxy. */
async function runHarness(
  side: Side,
  concurrency: number,
  seconds: number,
  target: string,
  mix: string[],
  proxiedLink?: true,
) {
  const { parseProfile } = (await shippedModule('profile/load')) as typeof import('../src/profile/load.ts');
  const { runProfile } = (await shippedModule('run/run-profile')) as typeof import('../src/run/run-profile.ts');
  const { createNetworkBackend } = (await shippedModule('network/index')) as typeof import('../src/network/index.ts');
  const yaml = profileYaml(side, concurrency, seconds, target, mix);
  const meter = new OpMeter(WARMUP_S * 1000);
  let failed = 0;
  await runProfile(
    { ...parseProfile(`bench:${side}`, yaml), ...(proxiedLink && { proxiedLink }) },
    {
      onProgress: (_done, opsFailed) => {
        failed = opsFailed;
        meter.opDone();
      },
      signal: new AbortController().signal,
      network: (seed, onDecision) => createNetworkBackend('embedded', { seed, onDecision }),
    },
  );
  return meter.result(side, concurrency, failed);
}

const echoHarness = (side: Side, proxiedLink?: true) => (concurrency: number, seconds: number) =>
  withEchoServer((url) =>
    runHarness(
      side,
      concurrency,
      seconds,
      `target: { kind: http, url: "${url}" }`,
      [`- tool: echo`, `  args: ${JSON.stringify(ECHO_ARGS)}`],
      proxiedLink,
    ),
  );

/** The default mix: baseline.yaml's `mix:` block as written (payments, notifications, search). */
function defaultMix(): string[] {
  const lines = readFileSync(join(REPO, 'chaos-profiles/baseline.yaml'), 'utf8').split('\n');
  const from = lines.indexOf('  mix:') + 1;
  const to = lines.findIndex((line, i) => i >= from && !line.startsWith('    '));
  return lines.slice(from, to).map((line) => line.slice(4));
}

const harnessRefSide = (concurrency: number, seconds: number) =>
  runHarness('harness-ref', concurrency, seconds, 'target: { kind: reference }', defaultMix());

const RUN_SIDE: Record<Side, (concurrency: number, seconds: number) => Promise<SideResult>> = {
  bare: bareSide('bare'),
  'bare-one-session': bareSide('bare-one-session'),
  harness: echoHarness('harness'),
  'harness-proxied': echoHarness('harness-proxied', true),
  'bare-ref': bareRefSide,
  'harness-ref': harnessRefSide,
};
// ---- the orchestrator: alternate sides, sample each side's process tree ----

/** Sum of VmRSS (bytes) over `root` and its descendants. Linux /proc only. */
function treeRss(root: number): number {
  const parent = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      parent.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {}
  }
  const inTree = (pid: number): boolean => {
    for (let p: number | undefined = pid; p !== undefined && p > 1; p = parent.get(p)) if (p === root) return true;
    return false;
  };
  let total = 0;
  for (const pid of parent.keys()) {
    if (!inTree(pid)) continue;
    try {
      const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
      total += Number(kb ?? 0) * 1024;
    } catch {}
  }
  return total;
}

async function measure(
  side: Side,
  concurrency: number,
  seconds: number,
  cpuProf?: string,
): Promise<SideResult & { peakRssMb: number; pid: number; listenerWarnings: number }> {
  // Node 20 refuses --cpu-prof in NODE_OPTIONS: it goes on the command line, and server children inherit execArgv.
  const profiling: string[] = [];
  if (cpuProf) {
    const dir = join(cpuProf, `${side}-c${concurrency}`);
    mkdirSync(dir, { recursive: true });
    profiling.push('--cpu-prof', `--cpu-prof-dir=${dir}`);
  }
  const child: ChildProcess = spawn(
    process.execPath,
    [
      ...profiling,
      RUN_TS,
      SELF,
      ...[
        '--side',
        side,
        '--concurrency',
        String(concurrency),
        '--seconds',
        String(seconds),
        '--warmup',
        String(WARMUP_S),
      ],
    ],
    // Its stderr is held back, shown only if it fails: the bare SDK client's transport gives fetch its one signal,
    // which gathers an abort listener per request until a collection, so Node warns of it hundreds of times a round.
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr!.on('data', (d) => {
    stderr += d;
  });
  let peak = 0;
  const sampler = setInterval(() => {
    peak = Math.max(peak, treeRss(child.pid!));
  }, 100);
  let out = '';
  child.stdout!.on('data', (d) => {
    out += d;
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  clearInterval(sampler);
  if (code !== 0)
    throw new Error(`${side} side (concurrency ${concurrency}) exited with ${code}:\n${stderr.slice(-2000)}`);
  const result = JSON.parse(out.trim().split('\n').pop()!) as SideResult;
  const listenerWarnings = stderr.match(/MaxListenersExceededWarning/g)?.length ?? 0;
  return { ...result, peakRssMb: Math.round((peak / 2 ** 20) * 10) / 10, pid: child.pid!, listenerWarnings };
}

/** Where a frame's code lives: an npm package, a folder of this repo, or a Node internal module. */
function areaOf(url: string, functionName: string): string {
  if (url === '') return functionName;
  if (url.startsWith('node:')) return `node:${url.replace(/^node:(internal\/)?/, '').split('/')[0]}`;
  const path = url.startsWith('file:') ? fileURLToPath(url) : url;
  // The reference server child runs as one esbuild bundle (src/targets/entry.ts): its SDK, zod and msw land here too.
  if (path.includes('node_modules/.cache/faultline/')) return 'reference server bundle (server, SDK, zod, msw)';
  const pkg = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(path);
  if (pkg) return pkg[1];
  return relative(REPO, path).split('/').slice(0, 2).join('/');
}

/** The pid a .cpuprofile file was written by (Node names them CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile). */
const pidOf = (file: string) => Number(file.split('.')[3]);

/**
 * Busy self time (idle excluded) inside the measured windows, over the .cpuprofile files under `dir` of the processes
 * `pick` takes (with their threads). Returns the top functions and the top areas.
 */
function topSelfTime(dir: string, windows: [number, number][], pick: (pid: number) => boolean, count = 12): string[] {
  const byFunction = new Map<string, number>();
  const byArea = new Map<string, number>();
  let total = 0;
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.cpuprofile') && pick(pidOf(f)))) {
    const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as {
      nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
      startTime: number;
      samples: number[];
      timeDeltas: number[];
    };
    const byId = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
    let t = profile.startTime;
    for (const [i, id] of profile.samples.entries()) {
      const us = profile.timeDeltas[i] ?? 0;
      t += us;
      const frame = byId.get(id)!;
      if (frame.functionName === '(idle)' || !windows.some(([from, to]) => t >= from && t <= to)) continue;
      const where = frame.url.startsWith('file:')
        ? relative(REPO, fileURLToPath(frame.url)).replace(/^(\.\.\/)+main\//, '')
        : frame.url;
      const key = `${frame.functionName || '(anonymous)'} ${where}${where ? `:${frame.lineNumber + 1}` : ''}`;
      byFunction.set(key, (byFunction.get(key) ?? 0) + us);
      const area = areaOf(frame.url, frame.functionName);
      byArea.set(area, (byArea.get(area) ?? 0) + us);
      total += us;
    }
  }
  const top = (m: Map<string, number>, n: number) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([key, us]) => `${((100 * us) / total).toFixed(1).padStart(5)}%  ${key}`);
  return [
    `busy ${(total / 1e6).toFixed(2)} s in the measured windows; by area:`,
    ...top(byArea, count),
    'by function:',
    ...top(byFunction, count),
  ];
}

const LABEL: Record<Side, string> = {
  bare: 'bare SDK pair (echo)',
  'bare-one-session': 'bare SDK pair, one session for every worker',
  harness: 'harness -> bare echo server',
  'harness-proxied': 'harness -> embedded proxy -> bare echo server',
  'bare-ref': 'bare SDK client -> reference server (default mix)',
  'harness-ref': 'harness -> reference server (default mix)',
};

const fixed = (n: number | null, digits: number) => (n === null || !Number.isFinite(n) ? 'n/a' : n.toFixed(digits));
/** a / b, or null when either is not measured. */
const share = (a: number | null, b: number | null) => (a === null || b === null ? null : a / b);

/** Min / median / max of the measured values (times `scale`); n/a when none was measured. */
function spread(values: (number | null)[], digits: number, scale = 1): string {
  const measured = values.filter((v): v is number => v !== null).sort((a, b) => a - b);
  if (measured.length === 0) return 'n/a';
  const show = (v: number) => (v * scale).toFixed(digits);
  return `${show(measured[0])} / ${show(median(measured)!)} / ${show(measured[measured.length - 1])}`;
}

type Measured = Awaited<ReturnType<typeof measure>>;

/** CPU ms per op of a side's busier process: the pair's CPU-bound rate is 1000 / this (that process has a core). */
const busier = (r: Measured) =>
  r.clientCpuMsPerOp === null || r.serverCpuMsPerOp === null ? null : Math.max(r.clientCpuMsPerOp, r.serverCpuMsPerOp);

/**
 * A goal judged on a ratio taken per round (a round's sides ran back to back, under the same load) and decided by the
 * rounds' median. Settled when every round falls on the verdict's side of the goal: a PASS or FAIL a rerun would keep.
 */
function judge(what: string, perRound: (number | null)[], errors: number): { pass: boolean; line: string } {
  const med = median(perRound);
  const pass = med !== null && med >= GOAL && errors === 0;
  const settled = perRound.every((v) => v !== null && v >= GOAL === pass);
  const verdict = `${pass ? 'PASS' : 'FAIL'}, ${settled ? 'settled' : 'unsettled: rounds on both sides of the goal'}`;
  return {
    pass,
    line: `  ${what}: ${spread(perRound, 1, 100)} % (min / median / max of ${perRound.length} rounds) -> ${verdict}${errors ? `; ${errors} errors` : ''}`,
  };
}

async function main(): Promise<void> {
  const { rounds, seconds, cpuProf } = options;
  console.log(
    `harness vs bare SDK 1.32 pair, ${rounds} rounds per side of ${seconds}s measured after ${WARMUP_S}s of warm-up, sides alternating`,
  );
  console.log(buildMeasured('the harness'));
  const summary: string[] = [];
  const verdicts: boolean[] = [];
  const capacityVerdicts: boolean[] = [];
  const profiled: { dir: string; windows: [number, number][]; clients: Set<number> }[] = [];
  for (const concurrency of CONCURRENCIES) {
    const sides = sidesAt(concurrency);
    const runs = new Map<Side, Measured[]>(sides.map((s) => [s, []]));
    for (let round = 0; round < rounds; round++) {
      // Rotate the order so no side always runs first (or right after the same neighbour).
      const order = sides.map((_, i) => sides[(i + round) % sides.length]);
      for (const side of order) {
        const r = await measure(side, concurrency, seconds, cpuProf || undefined);
        runs.get(side)!.push(r);
        console.log(
          `  c=${concurrency} round ${round + 1} ${side.padEnd(Math.max(...SIDES.map((s) => s.length)))} ${fixed(r.opsPerSec, 1).padStart(8)} ops/s  CPU ms/op client ${fixed(r.clientCpuMsPerOp, 3)} server ${fixed(r.serverCpuMsPerOp, 3)}; writes/op client ${fixed(r.syscallsPerOp.writes[0], 2)} server ${fixed(r.syscallsPerOp.writes[1], 2)}, reads/op ${fixed(r.syscallsPerOp.reads[0], 2)} / ${fixed(r.syscallsPerOp.reads[1], 2)}  (${r.ops} ops, ${r.errors} errors, peak RSS ${r.peakRssMb} MB, load ${loadavg()[0].toFixed(1)}${r.listenerWarnings > 0 ? `, ${r.listenerWarnings} MaxListenersExceededWarning` : ''})`,
        );
      }
    }
    const of = (side: Side) => runs.get(side)!;
    /** `f` of two sides, round by round. */
    const paired = (a: Side, b: Side, f: (a: Measured, b: Measured) => number | null) =>
      of(a).map((r, i) => f(r, of(b)[i]));
    const errorsOf = (...sides: Side[]) => sides.reduce((n, side) => n + of(side).reduce((m, r) => m + r.errors, 0), 0);
    summary.push(`\nconcurrency ${concurrency} (min / median / max of ${rounds} rounds):`);
    for (const side of sides) {
      const rs = of(side);
      summary.push(
        `  ${LABEL[side].padEnd(Math.max(...Object.values(LABEL).map((l) => l.length)))} ${spread(
          rs.map((r) => r.opsPerSec),
          1,
        )} ops/s; CPU ms/op client ${spread(
          rs.map((r) => r.clientCpuMsPerOp),
          3,
        )}, server ${spread(
          rs.map((r) => r.serverCpuMsPerOp),
          3,
        )}; write syscalls/op client ${spread(
          rs.map((r) => r.syscallsPerOp.writes[0]),
          2,
        )}, server ${spread(
          rs.map((r) => r.syscallsPerOp.writes[1]),
          2,
        )}; peak RSS ${Math.max(...rs.map((r) => r.peakRssMb))} MB; errors ${errorsOf(side)}`,
      );
      profiled.push({
        dir: `${side}-c${concurrency}`,
        windows: rs.map((r) => r.windowUs),
        clients: new Set(rs.map((r) => r.pid)),
      });
    }
    // An error is not a call the harness drove: a run with any cannot pass.
    const errors = errorsOf('bare', 'harness');
    const byRate = judge(
      'harness / bare, rate',
      paired('harness', 'bare', (h, b) => share(h.opsPerSec, b.opsPerSec)),
      errors,
    );
    // CPU per op is inflated alike on both sides by load; a wall-clock rate under load says how busy the machine was.
    const byCpu = judge(
      "harness / bare, CPU-bound rate (1000 / CPU ms per op of the pair's busier process)",
      paired('harness', 'bare', (h, b) => share(busier(b), busier(h))),
      errors,
    );
    verdicts.push(byRate.pass && byCpu.pass);
    // The server's capacity: the rate at which its process would use a whole core (1000 / its CPU ms per op), next to
    // the bare pair's CPU-bound rate (1000 / the CPU ms per op of its busier process, client or server).
    const capacity = judge(
      "reference server's capacity (1000 / its CPU ms per op under harness-ref) / the bare pair's CPU-bound rate",
      paired('harness-ref', 'bare', (h, b) => share(busier(b), h.serverCpuMsPerOp)),
      errorsOf('bare', 'bare-ref', 'harness-ref'),
    );
    capacityVerdicts.push(capacity.pass);
    const rateShare = (a: Side, b: Side) =>
      spread(
        paired(a, b, (x, y) => share(x.opsPerSec, y.opsPerSec)),
        1,
        100,
      );
    summary.push(
      byRate.line,
      byCpu.line,
      capacity.line,
      `  harness-proxied / bare, rate: ${rateShare('harness-proxied', 'bare')} %; harness / harness-proxied, rate: ${rateShare('harness', 'harness-proxied')} % (the proxy's hop, as a run with network faults has it)`,
      ...(sides.includes('bare-one-session')
        ? [
            `  harness / bare-one-session, rate: ${rateShare('harness', 'bare-one-session')} %; bare-one-session / bare, rate: ${rateShare('bare-one-session', 'bare')} % (one session for every worker, as a run has, against one per worker)`,
          ]
        : []),
      `  harness-ref / bare-ref, rate: ${rateShare('harness-ref', 'bare-ref')} % (the harness against a bare client, both on the reference server)`,
      `  harness-ref / bare, rate: ${rateShare('harness-ref', 'bare')} % (the reference server and its dependency world instead of the bare echo server)`,
    );
  }
  for (const line of summary) console.log(line);
  console.log(
    `\ngoal (harness >= ${GOAL * 100}% of the bare pair, by rate and by CPU, at c=${CONCURRENCIES.join(' and c=')}): ${verdicts.every(Boolean) ? 'PASS' : 'FAIL'} in this run`,
    `\ngoal (the reference server, as a capacity review drives it, carries >= ${GOAL * 100}% of the bare pair's CPU-bound rate before it saturates a core, at c=${CONCURRENCIES.join(' and c=')}): ${capacityVerdicts.every(Boolean) ? 'PASS' : 'FAIL'} in this run`,
    `(load average ${loadavg()[0].toFixed(2)} on ${availableParallelism()} cores at the end${loadavg()[0] > availableParallelism() ? ': the machine was busy, the rates are indicative' : ''})`,
  );
  if (cpuProf) {
    for (const { dir, windows, clients } of profiled) {
      // The children (the server, and for the reference server a standby child forked ahead of a restart) apart from
      // the client process, so what the server costs per call reads on its own.
      for (const [name, pick] of [
        ['client process', (pid: number) => clients.has(pid)],
        ['child processes (server, standby)', (pid: number) => !clients.has(pid)],
      ] as const) {
        console.log(`\nCPU self time, ${dir}, ${name} (every round, measured windows only):`);
        for (const line of topSelfTime(join(cpuProf, dir), windows, pick)) console.log(`  ${line}`);
      }
    }
  }
}

if (options.side) {
  // The side runs its warm-up, then the measured seconds (OpMeter leaves the warm-up out).
  const result = await RUN_SIDE[options.side](options.concurrency, WARMUP_S + options.seconds);
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.exit(0);
} else await main();
