// The real Go `toxiproxy-cli` (TOXIPROXY_CLI names the binary) driving the embedded server: every command exits as
// it should and its output shows what the server holds. With TOXIPROXY_URL too, the same commands run against a
// real Toxiproxy and the two transcripts must be equal, ports aside: the CLI cannot tell the servers apart.
import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedToxiproxy, startEmbeddedToxiproxy } from '../../../src/toxiproxy/server.ts';
import { startUpstream, type Upstream } from './helpers.ts';

const cliPath = process.env.TOXIPROXY_CLI;
const realUrl = process.env.TOXIPROXY_URL?.replace(/\/+$/, '');
const skip = cliPath ? undefined : 'TOXIPROXY_CLI not set: no real toxiproxy-cli binary to drive the server with';

interface Step {
  rc: number;
  out: string;
}

/** One CLI command against the server at `url`; the proxy's name is `{proxy}` in the arguments. */
function cli(url: string, args: string[]): Promise<Step> {
  return new Promise((resolve) => {
    execFile(cliPath!, ['--host', url, ...args], { timeout: 10_000 }, (error, stdout, stderr) => {
      const rc = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      resolve({ rc, out: stdout + stderr });
    });
  });
}

/** Every command, in order, with the exit code the CLI gives on the original server (0 done, 1 refused). */
const SCRIPT: [string[], number][] = [
  [['create', '-l', '127.0.0.1:0', '-u', 'UPSTREAM', '{proxy}'], 0],
  [['create', '-l', '127.0.0.1:0', '-u', 'UPSTREAM', '{proxy}'], 1],
  [['toxic', 'add', '-t', 'latency', '-a', 'latency=100', '-a', 'jitter=5', '{proxy}'], 0],
  [['toxic', 'add', '-t', 'limit_data', '-a', 'bytes=10', '-u', '-n', 'lim', '{proxy}'], 0],
  [['toxic', 'add', '-t', 'bandwidth', '-a', 'rate=100', '-tox', '0.5', '{proxy}'], 0],
  [['toxic', 'add', '-t', 'slicer', '-a', 'average_size=10', '-a', 'size_variation=2', '-a', 'delay=5', '{proxy}'], 0],
  [['toxic', 'add', '-t', 'reset_peer', '{proxy}'], 0],
  [['toxic', 'add', '-t', 'latency', '-a', 'latency=abc', '-n', 'bad', '{proxy}'], 1],
  [['toxic', 'add', '-t', 'nosuch', '{proxy}'], 1],
  [['inspect', '{proxy}'], 0],
  [['toxic', 'update', '-n', 'latency_downstream', '-a', 'latency=200', '{proxy}'], 0],
  [['toxic', 'remove', '-n', 'lim', '{proxy}'], 0],
  [['toxic', 'remove', '-n', 'lim', '{proxy}'], 1],
  [['toxic', 'update', '-n', 'nosuch', '-a', 'rate=1', '{proxy}'], 1],
  [['inspect', '{proxy}'], 0],
  [['toggle', '{proxy}'], 0],
  [['toggle', '{proxy}'], 0],
  [['delete', '{proxy}'], 0],
  [['delete', '{proxy}'], 1],
  [['inspect', '{proxy}'], 1],
];

/** Runs the script against one server; the proxy name and every port are made the same for both servers. */
async function transcript(url: string, proxy: string, upstream: number): Promise<Step[]> {
  const steps: Step[] = [];
  for (const [args] of SCRIPT) {
    const step = await cli(
      url,
      args.map((a) => a.replace('{proxy}', proxy).replace('UPSTREAM', `127.0.0.1:${upstream}`)),
    );
    steps.push({
      rc: step.rc,
      out: step.out.replaceAll(proxy, 'PROXY').replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:PORT'),
    });
  }
  return steps;
}

describe.skipIf(skip)(`the real toxiproxy-cli${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let server: EmbeddedToxiproxy;
  let upstream: Upstream;
  const proxy = `real-cli-${process.pid}`;

  beforeAll(async () => {
    server = await startEmbeddedToxiproxy({ seed: 7 });
    upstream = await startUpstream();
  });
  afterAll(async () => {
    if (realUrl) await fetch(`${realUrl}/proxies/${proxy}`, { method: 'DELETE' }).catch(() => undefined);
    await upstream?.close();
    await server?.close();
  });

  it('drives the embedded server: each command exits as on the original, and inspect shows the toxics', async () => {
    const steps = await transcript(server.url, proxy, upstream.port);
    expect(steps.map((s) => s.rc)).toEqual(SCRIPT.map(([, rc]) => rc));
    const inspected = steps[SCRIPT.findIndex(([args]) => args[0] === 'inspect')].out;
    for (const toxic of [
      'latency_downstream',
      'lim',
      'bandwidth_downstream',
      'slicer_downstream',
      'reset_peer_downstream',
    ])
      expect(inspected).toContain(toxic);
    expect(inspected).toMatch(/toxicity=0\.50/);
  });

  it.skipIf(!realUrl)('prints the same transcript for the embedded server and a real one (TOXIPROXY_URL)', async () => {
    const embedded = await transcript(server.url, proxy, upstream.port);
    const real = await transcript(realUrl!, proxy, upstream.port);
    expect(embedded).toEqual(real);
  });
});
