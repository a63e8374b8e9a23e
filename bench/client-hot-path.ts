// What each piece of the harness's per-call hot path costs, in CPU microseconds per call of one process (a loaded
// machine skews that less than bench:overhead's wall-clock rates):
//   async context: an SDK 1.32 Client calling `echo` over Streamable HTTP on bench:overhead's echo server child
//                  (client CPU only), each call inside an AsyncLocalStorage run (as attempt.ts runs every attempt)
//                  against the same calls without one, in alternating blocks in one child process (Node 20's
//                  AsyncLocalStorage turns on a process-wide promise hook while enabled; disable() turns it off).
//   fetch chain:   the transport's fetch wrappers (own signal per request, attempt HTTP record) around a stub fetch,
//                  minus the stub alone.
//   classification: classifyResult and visibleText of an ok echo result.
//   recording:     the Recorder taking one attempt and its op (record log append and metric feed).
// Run: npm run bench:hot-path [-- --rounds 5 --calls 3000]

import { AsyncLocalStorage } from 'node:async_hooks';
import { spawn, spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SELF = fileURLToPath(import.meta.url);
/** Blocks of each kind per round in the async-context child. */
const BLOCKS = 10;
const RUN_TS = join(fileURLToPath(new URL('..', import.meta.url)), 'bin/run-ts.js');

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

/** CPU (user + system) microseconds per call of `fn`, after a warm-up of a tenth as many calls. */
async function cpuUsPerCall(calls: number, fn: (i: number) => unknown): Promise<number> {
  for (let i = 0; i < calls / 10; i++) await fn(i);
  const before = process.cpuUsage();
  for (let i = 0; i < calls; i++) await fn(i);
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

/** bench:overhead's bare echo server in a child; resolves its URL and how to stop it. */
async function echoServer(): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, [RUN_TS, join(dirname(SELF), 'harness-overhead.ts'), '--echo-server'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const match = /listening (\S+)/.exec(out);
      if (match) resolve(match[1]);
    });
    child.on('exit', (code) => reject(new Error(`echo server exited with ${code}`)));
  });
  return { url, stop: () => child.kill('SIGTERM') };
}

/** The rest, in this process: each piece's cost on its own. */
async function pieces(calls: number): Promise<Record<string, number>> {
  const { transportFetch } = await import('../src/client/connection.ts');
  const { classifyResult } = await import('../src/client/classify.ts');
  const { visibleText } = await import('../src/client/attempt.ts');
  const { runInAttempt } = await import('../src/client/attempt-context.ts');
  const { Recorder } = await import('../src/run/recorder.ts');
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 7,
    method: 'tools/call',
    params: { name: 'echo', arguments: { text: 'hello' }, _meta: { 'faultline/trace': 'op-00001', attempt: 1 } },
  });
  const init = {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json' },
    signal: new AbortController().signal,
  };
  const stub: typeof fetch = async () =>
    new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } });
  const chained = transportFetch(stub);
  const stubUs = await cpuUsPerCall(calls, () => stub('http://127.0.0.1:1/mcp', init));
  const chainUs = await cpuUsPerCall(calls, () => runInAttempt({}, () => chained('http://127.0.0.1:1/mcp', init)));
  const result = { content: [{ type: 'text', text: 'hello' }] };
  const classifyUs = await cpuUsPerCall(calls * 10, () => {
    classifyResult(result);
    return visibleText(result);
  });
  const recorder = new Recorder({ spill: true });
  const recordUs = await cpuUsPerCall(calls, (i) => {
    const opId = `op-${i}`;
    const startMs = Date.now();
    recorder.attempt({
      opId,
      attempt: 1,
      startMs,
      endMs: startMs + 1,
      ok: true,
      tool: 'echo',
      args: { text: 'hello' },
      visible: 'hello',
      next: 'done',
    });
    recorder.op({
      opId,
      tool: 'echo',
      sideEffecting: false,
      startMs,
      endMs: startMs + 1,
      outcome: 'ok',
      attempts: 1,
      failedAttempts: 0,
      visible: 'hello',
    });
  });
  return { 'fetch chain': chainUs - stubUs, classification: classifyUs, recording: recordUs };
}

async function main(): Promise<void> {
  const rounds = Number(arg('rounds', '5'));
  const calls = Number(arg('calls', '3000'));
  const server = await echoServer();
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
  server.stop();
  const piece = await pieces(calls);
  const us = (n: number) => `${n.toFixed(1).padStart(7)} µs/call`;
  console.log(
    `client hot path, CPU per call (${rounds} rounds of ${calls} calls, medians; load average ${loadavg()[0].toFixed(2)})`,
  );
  console.log(`  SDK client echo call over HTTP          ${us(median(plain))}`);
  console.log(`  same, inside an AsyncLocalStorage run   ${us(median(context))}`);
  console.log(`  async context (the difference)          ${us(median(context) - median(plain))}`);
  for (const [name, value] of Object.entries(piece)) console.log(`  ${name.padEnd(39)} ${us(value)}`);
}

if (process.argv.includes('--sdk')) {
  process.stdout.write(`${JSON.stringify(await sdkCalls(arg('url', ''), Number(arg('calls', '3000'))))}\n`);
  process.exit(0);
} else await main();
