// What the harness itself costs: ops per second through the whole Faultline stack with no faults, against the raw
// MCP SDK client and server connected directly, at concurrency 1 and 16, side by side in one run (the two sides
// alternate over a few rounds; medians reported). Target: the harness at 70% of the raw rate or better.
//
// Both sides do the same tool work: search_documents {query: "invoice", page_size: 10}, the reference server's
// cheapest workload tool (read-only, one GET to the search dependency answered by msw in the server's process,
// input and output schemas validated). Each side is a client process plus a server child process:
//   harness: runProfile() on a no-fault closed-model profile built in code (parseProfile): embedded Toxiproxy hop,
//            resilient client policy (attempt records, classification, timeouts), Recorder history, decision log,
//            the reference server child (session map, event store, our dispatcher and redaction, the msw
//            dependency world and its ledger, effects pushed over IPC), ledger read and metrics at the end. The
//            rate is the report's throughput (first op start to last op end: set-up and drain excluded).
//   raw:     an SDK 1.32 McpServer with that one tool (same input schema, same run function, same msw world) over
//            StreamableHTTPServerTransport on 127.0.0.1 (stateful, no event store), and an SDK Client calling it
//            in a loop from N workers over one session; rate from first call start to last call end.
// Peak RSS is the largest sum of VmRSS over the side's process tree (client + server), sampled every 100 ms. CPU
// per op (client + server processes, from /proc) is printed too: on a shared, loaded machine wall-clock rates
// swing from round to round, CPU cost per op much less.
// Prints numbers; asserts nothing. Run: npm run bench:overhead [-- --rounds 3 --seconds 3 --cpu-prof DIR]
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, relative } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const SELF = fileURLToPath(import.meta.url);
const REPO = fileURLToPath(new URL('..', import.meta.url));
const RUN_TS = join(REPO, 'bin/run-ts.js');
const TOOL = 'search_documents';
const ARGS = { query: 'invoice', page_size: 10 };
const TARGET = 0.7;

type Side = 'harness' | 'raw';

interface SideResult {
  side: Side;
  concurrency: number;
  ops: number;
  errors: number;
  opsPerSec: number;
  /** The measured stretch on CLOCK_MONOTONIC in µs (what V8 cpuprofile times use), to leave start-up out. */
  windowUs: [number, number];
  /** CPU (user + system) of the client and server processes per op, from the first op's end to the last's. */
  cpuMsPerOp: number;
}

const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

/** The processes whose CPU an op costs: this one and its children (the server), found once. */
function processTree(): number[] {
  const children: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === process.pid) children.push(Number(name));
    } catch {}
  }
  return [process.pid, ...children];
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
 * CPU per op between the first op's end and the last sample. /proc is read at most every 100 ms (reading it on
 * every op showed up in the profile), so the ops counted are those up to the last sample.
 */
class CpuPerOp {
  private pids: number[] = [];
  private first = 0;
  private last = 0;
  private ops = 0;
  private opsAtLast = 0;
  private sampledAt = 0;

  opDone(): void {
    const now = performance.now();
    if (this.ops === 0) {
      this.pids = processTree();
      this.first = cpuMs(this.pids);
      this.sampledAt = now;
    } else if (now - this.sampledAt >= 100) {
      this.last = cpuMs(this.pids);
      this.opsAtLast = this.ops;
      this.sampledAt = now;
    }
    this.ops++;
  }

  get msPerOp(): number {
    return this.opsAtLast > 0 ? Math.round(((this.last - this.first) / this.opsAtLast) * 100) / 100 : 0;
  }
}

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

// ---- the harness side: runProfile on a no-fault profile ----

async function harnessSide(concurrency: number, seconds: number): Promise<SideResult> {
  const { parseProfile } = await import('../src/profile/load.ts');
  const { runProfile } = await import('../src/run/run-profile.ts');
  const { createNetworkBackend } = await import('../src/network/index.ts');
  const yaml = [
    'name: harness-overhead',
    'description: No faults; the whole stack at a fixed concurrency, to measure what the harness costs.',
    'seed: 1',
    `duration: ${seconds}s`,
    'client: { policy: resilient, attemptTimeoutMs: 10000, deadlineMs: 20000 }',
    'workload:',
    `  concurrency: ${concurrency}`,
    '  mix:',
    `    - tool: ${TOOL}`,
    `      args: { query: ${ARGS.query}, page_size: ${ARGS.page_size} }`,
  ].join('\n');
  const loaded = parseProfile('bench:harness-overhead', yaml);
  const cpu = new CpuPerOp();
  const { report } = await runProfile(loaded, {
    onProgress: () => cpu.opDone(),
    signal: new AbortController().signal,
    network: (seed, onDecision) => createNetworkBackend('embedded', { seed, onDecision }),
  });
  const m = report.metrics;
  const toMonotonic = monotonicUs() - Date.now() * 1000;
  const from = Date.parse(report.startedAt!) * 1000 + toMonotonic;
  return {
    side: 'harness',
    concurrency,
    ops: m.ops,
    errors: m.opsFail + m.opsInfo,
    opsPerSec: m.throughputOpsPerSec,
    windowUs: [from, from + report.durationMs! * 1000],
    cpuMsPerOp: cpu.msPerOp,
  };
}

// ---- the raw side: SDK client -> SDK server, one tool, nothing else ----

/** The raw server child: one McpServer per session with the one tool, printing its URL when it listens. */
async function rawServer(): Promise<void> {
  const { McpServer } = await import('@modelcontextprotocol/sdk/server/mcp.js');
  const { StreamableHTTPServerTransport } = await import('@modelcontextprotocol/sdk/server/streamableHttp.js');
  const { isInitializeRequest } = await import('@modelcontextprotocol/sdk/types.js');
  const { startDependencies } = await import('../src/server/deps/world.ts');
  const { ServerRuntime } = await import('../src/server/runtime.ts');
  const { DEFAULT_DEPENDENCY_TIMEOUT_MS } = await import('../src/core/defaults.ts');
  const { searchDocuments } = await import('../src/server/tools/search-documents.ts');
  startDependencies(1);
  const runtime = new ServerRuntime({ dependencyTimeoutMs: DEFAULT_DEPENDENCY_TIMEOUT_MS, leaky: false });
  const transports = new Map<string, InstanceType<typeof StreamableHTTPServerTransport>>();
  const newServer = () => {
    const server = new McpServer({ name: 'raw', version: '1.0.0' });
    server.registerTool(
      TOOL,
      // No outputSchema: the reference server's dispatcher does not validate its output either (input only).
      { inputSchema: searchDocuments.input },
      async (args, extra) => {
        const out = await searchDocuments.run(args as never, {
          requestId: randomUUID(),
          signal: extra.signal,
          runtime,
          call: (dependency, req) => runtime.deps.call(dependency, req, { signal: extra.signal }),
          progress: async () => {},
        });
        return { content: [{ type: 'text', text: out.text }], structuredContent: out.structured };
      },
    );
    return server;
  };
  const http = createServer(async (req, res) => {
    const id = req.headers['mcp-session-id'];
    const transport = typeof id === 'string' ? transports.get(id) : undefined;
    if (!transport) {
      if (req.method !== 'POST') {
        res.writeHead(404).end();
        return;
      }
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      if (!isInitializeRequest(body)) {
        res.writeHead(404).end();
        return;
      }
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sid) => {
          transports.set(sid, created);
        },
      });
      await newServer().connect(created);
      await created.handleRequest(req, res, body);
      return;
    }
    await transport.handleRequest(req, res);
  });
  process.once('SIGTERM', () => process.exit(0));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  process.stdout.write(`listening http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp\n`);
}

async function rawSide(concurrency: number, seconds: number): Promise<SideResult> {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
  const server = spawn(process.execPath, [...process.execArgv, RUN_TS, SELF, '--raw-server'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      server.stdout!.on('data', (d) => {
        out += d;
        const match = /listening (\S+)/.exec(out);
        if (match) resolve(match[1]);
      });
      server.on('exit', (code) => reject(new Error(`raw server exited with ${code}`)));
    });
    const client = new Client({ name: 'raw-bench', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    const cpu = new CpuPerOp();
    let ops = 0;
    let errors = 0;
    let first = Number.POSITIVE_INFINITY;
    let last = 0;
    const end = performance.now() + seconds * 1000;
    const fromUs = monotonicUs();
    const worker = async () => {
      while (performance.now() < end) {
        const start = performance.now();
        first = Math.min(first, start);
        try {
          const result = await client.callTool({ name: TOOL, arguments: ARGS });
          if (result.isError) errors++;
        } catch {
          errors++;
        }
        ops++;
        cpu.opDone();
        last = Math.max(last, performance.now());
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    await client.close();
    const rate = ops / ((last - first) / 1000);
    return {
      side: 'raw',
      concurrency,
      ops,
      errors,
      opsPerSec: Math.round(rate * 100) / 100,
      windowUs: [fromUs, monotonicUs()],
      cpuMsPerOp: cpu.msPerOp,
    };
  } finally {
    // SIGTERM: the server exits through process.exit, so a --cpu-prof profile is written.
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
}

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
): Promise<SideResult & { peakRssMb: number }> {
  // Node 20 refuses --cpu-prof in NODE_OPTIONS: it goes on the command line, and server children inherit execArgv.
  const profiling: string[] = [];
  if (cpuProf) {
    const dir = join(cpuProf, `${side}-c${concurrency}`);
    mkdirSync(dir, { recursive: true });
    profiling.push('--cpu-prof', `--cpu-prof-dir=${dir}`);
  }
  const child: ChildProcess = spawn(
    process.execPath,
    [...profiling, RUN_TS, SELF, '--side', side, '--concurrency', String(concurrency), '--seconds', String(seconds)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
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
  if (code !== 0) throw new Error(`${side} side (concurrency ${concurrency}) exited with ${code}`);
  const result = JSON.parse(out.trim().split('\n').pop()!) as SideResult;
  return { ...result, peakRssMb: Math.round((peak / 2 ** 20) * 10) / 10 };
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

/**
 * Busy self time (idle excluded) inside the measured windows, over every .cpuprofile under `dir`: client process,
 * its loader thread and server child alike. Returns the top functions and the top areas.
 */
function topSelfTime(dir: string, windows: [number, number][], count = 12): string[] {
  const byFunction = new Map<string, number>();
  const byArea = new Map<string, number>();
  let total = 0;
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'))) {
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

const WIDTHS = [11, 9, 9, 7, 11, 9, 8, 7, 9, 8, 11];

function row(cells: string[]): string {
  return cells.map((c, i) => (i === 0 ? c.padEnd(WIDTHS[i]) : c.padStart(WIDTHS[i]))).join(' ');
}

async function main(): Promise<void> {
  const rounds = Number(arg('rounds', '3'));
  const seconds = Number(arg('seconds', '3'));
  const cpuProf = arg('cpu-prof', '');
  console.log(
    `harness vs raw SDK, ${TOOL} ${JSON.stringify(ARGS)}, ${rounds} rounds of ${seconds}s per side, sides alternating`,
  );
  const rows: string[] = [];
  const profiled: { dir: string; windows: [number, number][] }[] = [];
  for (const concurrency of [1, 16]) {
    const rates: Record<Side, number[]> = { harness: [], raw: [] };
    const peaks: Record<Side, number[]> = { harness: [], raw: [] };
    const cpu: Record<Side, number[]> = { harness: [], raw: [] };
    const errors: Record<Side, number> = { harness: 0, raw: 0 };
    const windows: Record<Side, [number, number][]> = { harness: [], raw: [] };
    for (let round = 0; round < rounds; round++) {
      const order: Side[] = round % 2 === 0 ? ['harness', 'raw'] : ['raw', 'harness'];
      for (const side of order) {
        const r = await measure(side, concurrency, seconds, cpuProf || undefined);
        rates[side].push(r.opsPerSec);
        peaks[side].push(r.peakRssMb);
        cpu[side].push(r.cpuMsPerOp);
        errors[side] += r.errors;
        windows[side].push(r.windowUs);
        console.log(
          `  c=${concurrency} round ${round + 1} ${side.padEnd(7)} ${r.opsPerSec.toFixed(1).padStart(8)} ops/s  ${r.cpuMsPerOp.toFixed(2).padStart(6)} CPU ms/op  (${r.ops} ops, ${r.errors} errors, peak RSS ${r.peakRssMb} MB)`,
        );
      }
    }
    const harness = median(rates.harness);
    const raw = median(rates.raw);
    const ratio = harness / raw;
    for (const side of ['harness', 'raw'] as const)
      profiled.push({ dir: `${side}-c${concurrency}`, windows: windows[side] });
    const cpuHarness = median(cpu.harness);
    const cpuRaw = median(cpu.raw);
    rows.push(
      row([
        String(concurrency),
        harness.toFixed(1),
        raw.toFixed(1),
        `${(ratio * 100).toFixed(1)}%`,
        ratio >= TARGET ? 'met' : 'NOT met',
        cpuHarness.toFixed(2),
        cpuRaw.toFixed(2),
        `${((cpuRaw / cpuHarness) * 100).toFixed(1)}%`,
        String(Math.max(...peaks.harness)),
        String(Math.max(...peaks.raw)),
        `${errors.harness}/${errors.raw}`,
      ]),
    );
  }
  console.log(`\n${' '.repeat(12)}ops per second (median)          CPU ms per op (median)    peak RSS MB`);
  console.log(
    row([
      'concurrency',
      'harness',
      'raw',
      'ratio',
      '70% target',
      'harness',
      'raw',
      'raw/h',
      'harness',
      'raw',
      'errors h/r',
    ]),
  );
  for (const line of rows) console.log(line);
  console.log(
    '\nratio = harness rate / raw rate. raw/h = raw CPU per op / harness CPU per op: the share of the raw rate the\nharness would reach if CPU were the only limit (it does not depend on what else loads the machine).',
  );
  if (cpuProf) {
    for (const { dir, windows } of profiled) {
      console.log(`\nCPU self time, ${dir} (client and server processes, every round, measured windows only):`);
      for (const line of topSelfTime(join(cpuProf, dir), windows)) console.log(`  ${line}`);
    }
  }
}

if (process.argv.includes('--raw-server')) await rawServer();
else if (process.argv.includes('--side')) {
  const side = arg('side', 'raw') as Side;
  const concurrency = Number(arg('concurrency', '1'));
  const seconds = Number(arg('seconds', '3'));
  const result = side === 'harness' ? await harnessSide(concurrency, seconds) : await rawSide(concurrency, seconds);
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.exit(0);
} else await main();
