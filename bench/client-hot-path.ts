// What each piece of the harness's per-call hot path costs, in CPU microseconds per call of one process (a loaded
// machine skews that less than bench:overhead's wall-clock rates):
//   async context: an SDK 1.32 Client calling `echo` over Streamable HTTP on bench:overhead's echo server child
//                  (client CPU only), each call inside an AsyncLocalStorage run (as attempt.ts ran every attempt before
//                  the attempt registry: what that saved)
//                  against the same calls without one, in alternating blocks in one child process (Node 20's
//                  AsyncLocalStorage turns on a process-wide promise hook while enabled; disable() turns it off).
//   each piece alone, in this process, in rounds (rotating order), each beside its baseline when it wraps one:
//     fetch chain:  the transport's fetch as connection.ts builds it (request signal, attempt HTTP record, edge
//                   seam with no rule, offer observer) around a stub fetch, minus the stub; then each wrapper alone;
//     SSE answer read along: an answer's SSE response read to its end through watched-stream.ts, minus the
//                   same response read as it is;
//     classification: classifyResult and visibleText of an ok echo result;
//     recording:    the Recorder taking an op's start, its attempt and its end (metric feed and record log append),
//                   and the record log append alone;
//     workload driver's own: the plan's next op, its random stream and its effect key (baseline.yaml's plan).
// Run: npm run bench:hot-path [-- --rounds 5 --calls 3000]

import { AsyncLocalStorage } from 'node:async_hooks';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchArgs, hidden, parseCount } from './args.ts';
import { startEchoServer } from './bare-pair.mjs';

const SELF = fileURLToPath(import.meta.url);
/** Blocks of each kind per round in the async-context child. */
const BLOCKS = 10;
/** The pieces are cheap next to an SDK call over HTTP: this many times the calls, so each reads above the noise. */
const PIECE_CALLS = 10;
const RUN_TS = join(fileURLToPath(new URL('..', import.meta.url)), 'bin/run-ts.js');

const { options } = benchArgs<{ rounds: number; calls: number; sdk?: true; url?: string }>(
  'bench:hot-path',
  "what each piece of the harness's per-call hot path costs, in CPU microseconds per call",
  (c) =>
    c
      .option('--rounds <n>', 'rounds', parseCount, 5)
      .option('--calls <n>', 'SDK calls per round (each piece alone: ten times as many)', parseCount, 3000)
      .addOption(hidden('--sdk'))
      .addOption(hidden('--url <url>')),
);

/** CPU (user + system) microseconds per call of `fn`, after a warm-up of a tenth as many calls. */
async function cpuUsPerCall(calls: number, fn: (i: number) => unknown): Promise<number> {
  for (let i = 0; i < calls / 10; i++) await fn(i);
  const before = process.cpuUsage();
  for (let i = 0; i < calls; i++) {
    await fn(i);
    // Let the job end now and then: until it does, every WeakRef made in it keeps its target (AbortSignal.any's).
    if (i % 1000 === 999) await new Promise(setImmediate);
  }
  const used = process.cpuUsage(before);
  return (used.user + used.system) / calls;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/**
 * In a child: echo calls to the echo server at `url` (one session) in blocks, alternately plain and inside an
 * AsyncLocalStorage run; `disable()` after each such block turns the process-wide promise hook off again, so the
 * plain blocks pay nothing for it and load that comes and goes falls on both. CPU µs per call of each.
 */
async function sdkCalls(url: string, calls: number): Promise<{ plain: number; context: number }> {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  const storage = new AsyncLocalStorage<object>();
  const call = () => client.callTool({ name: 'echo', arguments: { text: 'hello' } });
  const block = calls / BLOCKS;
  let plain = 0;
  let context = 0;
  for (let i = 0; i < BLOCKS; i++) {
    plain += await cpuUsPerCall(block, call);
    context += await cpuUsPerCall(block, () => storage.run({}, call));
    storage.disable();
  }
  await client.close();
  return { plain: plain / BLOCKS, context: context / BLOCKS };
}

/** A piece: CPU µs per call of `fn` (after `setup`), less that of `baseline` when it has one. */
interface Piece {
  name: string;
  fn: (i: number) => unknown;
  /** What the piece wraps (a stub fetch), measured beside it in the same round and subtracted. */
  baseline?: (i: number) => unknown;
}

/** The rest, in this process: each piece's cost on its own. */
async function pieceList(): Promise<Piece[]> {
  const { transportFetch } = await import('../src/client/connection.ts');
  const { ownSignalPerRequest } = await import('../src/client/request-signal.ts');
  const { recordingFetch } = await import('../src/client/recording-fetch.ts');
  const { AttemptRegistry } = await import('../src/client/attempt-registry.ts');
  const { watchedResponse } = await import('../src/client/watched-stream.ts');
  const { ATTEMPT_META_KEY, TRACE_META_KEY } = await import('../src/core/wire.ts');
  const { offerObserver } = await import('../src/client/offer-observer.ts');
  const { EdgeController } = await import('../src/faults/edge/http/controller.ts');
  const { classifyResult } = await import('../src/client/classify.ts');
  const { visibleText } = await import('../src/client/attempt.ts');
  const { Recorder } = await import('../src/run/recorder.ts');
  const { RecordLog } = await import('../src/core/record-log.ts');
  const { parseProfile } = await import('../src/profile/load.ts');
  const { buildPlan } = await import('../src/plan/plan.ts');
  const { RandomStream } = await import('../src/core/random.ts');
  const { effectArgsKey } = await import('../src/server/tools/catalog.ts');
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 7,
    method: 'tools/call',
    params: {
      name: 'echo',
      arguments: { text: 'hello' },
      _meta: { [TRACE_META_KEY]: 'op-00001', [ATTEMPT_META_KEY]: 1 },
    },
  });
  // One signal for every request, as the SDK's transport sends them.
  const init = {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json' },
    signal: new AbortController().signal,
  };
  // One response for every call (nothing reads its body): the stub costs little, so the differences show.
  const response = new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } });
  const stub: typeof fetch = async () => response;
  const url = 'http://127.0.0.1:1/mcp';
  // The requests of attempt 1 of op-00001 are found in the connection's registry, as a run's are.
  const attempts = new AttemptRegistry();
  const inAttempt = (f: typeof fetch) => () => attempts.during('op-00001', 1, {}, () => f(url, init));
  // An answer on an SSE stream, read to its end: as it is, and read along for log messages (watched-stream.ts).
  const sse = `id: e-1\nevent: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: 'hello' }] } })}\n\n`;
  const sseAnswer = () => new Response(sse, { status: 200, headers: { 'content-type': 'text/event-stream' } });
  const readToEnd = async (r: Response) => {
    const reader = r.body!.getReader();
    while (!(await reader.read()).done);
  };
  // The whole chain as connection.ts builds it for an http target: signal, attempt record, edge seam, offer observer.
  const edge = new EdgeController();
  const chain = transportFetch(edge.wrap(offerObserver(stub).fetch), attempts);
  const result = { content: [{ type: 'text', text: 'hello' }] };
  const attempt = (opId: string, startMs: number) => ({
    opId,
    attempt: 1,
    startMs,
    endMs: startMs + 1,
    ok: true,
    tool: 'echo',
    args: { text: 'hello' },
    visible: 'hello',
    next: 'done' as const,
  });
  const op = (opId: string, startMs: number) => ({
    opId,
    tool: 'echo',
    sideEffecting: false,
    startMs,
    endMs: startMs + 1,
    outcome: 'ok' as const,
    attempts: 1,
    failedAttempts: 0,
    visible: 'hello',
  });
  const recorder = new Recorder({ spill: true });
  const log = new RecordLog(Date.now());
  const profile = parseProfile(
    'bench:hot-path',
    readFileSync(join(dirname(SELF), '../chaos-profiles/baseline.yaml'), 'utf8'),
  ).profile;
  const plan = buildPlan(profile, 1);
  const client = new RandomStream(1, 'client');
  return [
    { name: 'fetch chain (whole)', fn: inAttempt(chain), baseline: inAttempt(stub) },
    { name: '  request signal', fn: inAttempt(ownSignalPerRequest(stub)), baseline: inAttempt(stub) },
    { name: '  attempt HTTP record', fn: inAttempt(recordingFetch(stub, attempts)), baseline: inAttempt(stub) },
    {
      name: 'SSE answer read along (log messages, stream errors)',
      // Read through `body`, as the SDK reads an SSE answer: the watched response keeps its own object and replaces
      // only its body, so text() would find the original stream locked.
      fn: () => readToEnd(watchedResponse(sseAnswer(), {}, attempts)),
      baseline: () => readToEnd(sseAnswer()),
    },
    { name: '  edge seam, no rule (trace key)', fn: inAttempt(edge.wrap(stub)), baseline: inAttempt(stub) },
    { name: '  offer observer', fn: inAttempt(offerObserver(stub).fetch), baseline: inAttempt(stub) },
    {
      name: 'classification',
      fn: () => {
        classifyResult(result);
        return visibleText(result);
      },
    },
    {
      name: 'recording (Recorder: metric feed + record log)',
      fn: (i) => {
        const opId = `op-${i}`;
        const startMs = Date.now();
        recorder.opStarted(opId, startMs);
        recorder.attempt(attempt(opId, startMs));
        recorder.op(op(opId, startMs));
      },
    },
    {
      name: '  record log append alone',
      fn: (i) => {
        const startMs = Date.now();
        log.append([attempt(`op-${i}`, startMs)], op(`op-${i}`, startMs));
      },
    },
    {
      name: "workload driver's own (plan op, its stream, effect key)",
      fn: (i) => {
        const planned = plan.ops.at(i % (plan.ops.count ?? Number.POSITIVE_INFINITY));
        client.child(planned.opId);
        return effectArgsKey(planned.tool, planned.args);
      },
    },
  ];
}

/** Every piece once per round, in rotating order, each beside its baseline: CPU µs per call per round. */
async function measurePieces(pieces: Piece[], rounds: number, calls: number): Promise<number[][]> {
  const perRound: number[][] = pieces.map(() => []);
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < pieces.length; k++) {
      const index = (k + round) % pieces.length;
      const { fn, baseline } = pieces[index];
      const base = baseline ? await cpuUsPerCall(calls, baseline) : 0;
      perRound[index].push((await cpuUsPerCall(calls, fn)) - base);
    }
  }
  return perRound;
}

async function main(): Promise<void> {
  const { rounds, calls } = options;
  const server = await startEchoServer();
  const sides = () => {
    const sdk = ['--sdk', '--url', server.url, '--calls', String(calls)];
    const out = spawnSync(process.execPath, [RUN_TS, SELF, ...sdk], { encoding: 'utf8' });
    if (out.status !== 0) throw new Error(`sdk side exited with ${out.status}: ${out.stderr.split('\n')[0]}`);
    return JSON.parse(out.stdout.trim()) as { plain: number; context: number };
  };
  const plain: number[] = [];
  const context: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const measured = sides();
    plain.push(measured.plain);
    context.push(measured.context);
  }
  await server.stop();
  const pieces = await pieceList();
  const piecesUs = await measurePieces(pieces, rounds, calls * PIECE_CALLS);
  const us = (n: number) => `${n.toFixed(1).padStart(7)} µs/call`;
  console.log(
    `client hot path, CPU per call (${rounds} rounds of ${calls} calls, medians; load average ${loadavg()[0].toFixed(2)})`,
  );
  console.log(`  SDK client echo call over HTTP          ${us(median(plain))}`);
  console.log(`  same, inside an AsyncLocalStorage run   ${us(median(context))}`);
  console.log(`  async context (the difference)          ${us(median(context) - median(plain))}`);
  console.log(
    `each piece alone in this process (${rounds} rounds of ${calls * PIECE_CALLS} calls; median, min - max):`,
  );
  for (const [i, { name }] of pieces.entries()) {
    const sorted = [...piecesUs[i]].sort((a, b) => a - b);
    console.log(
      `  ${name.padEnd(56)} ${us(median(sorted))}  (${sorted[0].toFixed(1)} - ${sorted[sorted.length - 1].toFixed(1)})`,
    );
  }
}

if (options.sdk) {
  process.stdout.write(`${JSON.stringify(await sdkCalls(options.url ?? '', options.calls))}\n`);
  process.exit(0);
} else await main();
