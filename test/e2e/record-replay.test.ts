// Record, replay, fault: `faultline record` sits between a real SDK client and a stdio server from npm
// (@modelcontextprotocol/server-memory) and writes the session as a cassette; `target: { kind: cassette }` serves
// it back as a server, and a network fault resets the replay's connections on the wire while every op is still
// answered from the cassette. A call the cassette never saw is refused by name (the negative control), and a
// broken cassette is one line at validate.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/measure/run-report.ts';
import { REPO, runCli } from '../helpers/cli.ts';

const MEMORY = join(REPO, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js');
const dir = mkdtempSync(join(tmpdir(), 'faultline-record-'));
const cassette = join(dir, 'memory.cassette.jsonl');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ALICE = { name: 'alice', entityType: 'person', observations: ['password=hunter2 likes tea'] };

beforeAll(async () => {
  const client = new Client({ name: 'recording-client', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [
        join(REPO, 'bin/faultline.js'),
        'record',
        '--cassette',
        cassette,
        '--target-command',
        `${process.execPath} ${MEMORY}`,
        '--target-env',
        `MEMORY_FILE_PATH=${join(dir, 'memory.jsonl')}`,
      ],
      stderr: 'pipe',
    }),
  );
  await client.listTools();
  await client.callTool({ name: 'create_entities', arguments: { entities: [ALICE] } });
  await client.callTool({ name: 'read_graph', arguments: {} });
  await client.close();
}, 60_000);

function lines(): Array<Record<string, unknown>> {
  return readFileSync(cassette, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
}

function profile(name: string, entity: typeof ALICE, fault: string): string {
  const file = join(dir, `${name}.yaml`);
  writeFileSync(
    file,
    `name: ${name}
seed: 3
duration: 3s
target: { kind: cassette, file: memory.cassette.jsonl, over: http }
client: { attemptTimeoutMs: 3000, deadlineMs: 20000, maxAttempts: 8, backoff: { initialMs: 100, maxMs: 600 } }
workload:
  rate: 10
  mix:
    - tool: create_entities
      sideEffect: false
      args:
        entities: { list: [ { object: { name: ${entity.name}, entityType: ${entity.entityType}, observations: { list: [ "${entity.observations[0]}" ] } } } ] }
    - tool: read_graph
${fault}
expect:
  - ops_fail == 0
`,
  );
  return file;
}

const RESET = `faults:
  - { seam: network, kind: reset_peer, stream: downstream, timeout: 0, start: 1s, stop: 1.6s }`;

async function run(file: string, out: string) {
  const result = await runCli(['run', file, '--out', join(dir, out)], { timeoutMs: 120_000 });
  const report: RunReport = JSON.parse(readFileSync(join(dir, out, 'report.json'), 'utf8'));
  return { result, profile: report.profiles[0] };
}

describe('faultline record', () => {
  it('writes the session as a cassette: a header, then every message each way, the secret redacted', () => {
    const [header, ...messages] = lines();
    expect(header).toMatchObject({
      cassette: 'faultline',
      version: 1,
      target: expect.stringContaining('server-memory'),
    });
    const methods = messages.filter((m) => m.from === 'client').map((m) => (m.message as { method?: string }).method);
    expect(methods).toEqual(['initialize', 'notifications/initialized', 'tools/list', 'tools/call', 'tools/call']);
    // Every request has its answer, in the same session.
    expect(messages.filter((m) => m.from === 'server')).toHaveLength(4);
    expect(new Set(messages.map((m) => m.session))).toEqual(new Set(['s1']));
    const text = readFileSync(cassette, 'utf8');
    expect(text).not.toContain('hunter2');
    expect(text).toContain('password=[redacted] likes tea');
  });
});

const EVERYTHING = join(REPO, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const CALLS = [
  { name: 'echo', arguments: { message: 'hello' } },
  { name: 'get-sum', arguments: { a: 2, b: 3 } },
];

/** Connects an SDK client to a stdio command, runs `CALLS`, and returns tools/list and the results. */
async function session(command: string, args: string[]) {
  const client = new Client({ name: 'recording-client', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command, args, stderr: 'pipe' }));
  const tools = (await client.listTools()).tools.map((t) => t.name).sort();
  const results = [];
  for (const call of CALLS) results.push(await client.callTool(call));
  await client.close();
  return { tools, results };
}

describe('a session with server-everything', () => {
  const recorded = join(dir, 'everything.cassette.jsonl');
  let original: Awaited<ReturnType<typeof session>>;
  beforeAll(async () => {
    const cli = join(REPO, 'bin/faultline.js');
    original = await session(process.execPath, [
      cli,
      'record',
      '--cassette',
      recorded,
      '--target-command',
      `${process.execPath} ${EVERYTHING} stdio`,
    ]);
  }, 60_000);

  it('replays with no faults to the same tools and results', async () => {
    const replayed = await session(process.execPath, [join(REPO, 'dist/bin/cassette-main.js'), recorded]);
    expect(original.results.length).toBe(2);
    expect(replayed).toEqual(original);
  });

  it('under connection resets, every op is still answered from the cassette', async () => {
    const file = join(dir, 'everything-reset.yaml');
    writeFileSync(
      file,
      `name: everything-replay-reset
seed: 4
duration: 3s
target: { kind: cassette, file: everything.cassette.jsonl, over: http }
client: { attemptTimeoutMs: 3000, deadlineMs: 20000, maxAttempts: 8, backoff: { initialMs: 100, maxMs: 600 } }
workload:
  rate: 10
  mix:
    - { tool: echo, sideEffect: false, args: { message: hello } }
    - { tool: get-sum, sideEffect: false, args: { a: 2, b: 3 } }
${RESET}
expect:
  - ops_fail == 0
  - fault_hits_min > 0
`,
    );
    const { result, profile: p } = await run(file, 'everything-reset');
    expect(result.code, result.stderr).toBe(0);
    expect(p.metrics.errorsByCode['LINK.RESET']).toBeGreaterThan(0);
    expect(p.metrics.opsOk).toBe(p.metrics.ops);
  });
});

describe('faultline record --port', () => {
  it('serves the client over Streamable HTTP, a session per client, and ends on SIGINT with the cassette written', async () => {
    const file = join(dir, 'http.cassette.jsonl');
    const recorder = spawn(
      process.execPath,
      [
        join(REPO, 'bin/faultline.js'),
        'record',
        '--cassette',
        file,
        '--port',
        '0',
        '--target-command',
        `${process.execPath} ${MEMORY}`,
      ],
      { env: { ...process.env, MEMORY_FILE_PATH: join(dir, 'memory-http.jsonl') } },
    );
    const [line] = (await once(recorder.stdout, 'data')) as [Buffer];
    const url = /MCP endpoint (\S+),/.exec(line.toString())?.[1];
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    for (const name of ['first', 'second']) {
      const client = new Client({ name, version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url!)));
      await client.callTool({ name: 'read_graph', arguments: {} });
      await client.close();
    }
    const exited = once(recorder, 'exit');
    recorder.kill('SIGINT');
    expect((await exited)[0]).toBe(0);
    const recorded = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => JSON.parse(l));
    const calls = recorded.filter((m) => m.from === 'client' && m.message.method === 'tools/call');
    expect(calls.map((m) => m.session)).toEqual(['s1', 's2']);
    expect(recorded.filter((m) => m.from === 'server' && m.message.result?.content)).toHaveLength(2);
  }, 60_000);
});

describe('target kind cassette', () => {
  it('replays the session as a server under connection resets on the wire: every op answered', async () => {
    const { result, profile: p } = await run(profile('replay-reset', ALICE, RESET), 'reset');
    expect(result.code, result.stderr).toBe(0);
    expect(p.metrics.errorsByCode['LINK.RESET']).toBeGreaterThan(0);
    expect(p.metrics.faultWindows[0].hits).toBeGreaterThan(0);
    expect(p.metrics.ops).toBeGreaterThan(10);
    expect(p.metrics.opsOk).toBe(p.metrics.ops);
  });

  it('refuses a call it never recorded, by name (the negative control): those ops fail', async () => {
    const bob = { ...ALICE, name: 'bob' };
    const { result, profile: p } = await run(profile('replay-unrecorded', bob, ''), 'unrecorded');
    expect(result.code).toBe(1);
    const calls = p.metrics.ops;
    expect(p.metrics.opsFail).toBeGreaterThan(0);
    expect(p.metrics.opsOk).toBeLessThan(calls);
    expect(readFileSync(join(dir, 'unrecorded', 'trace.jsonl'), 'utf8')).toContain(
      'faultline replay: no recorded tools/call with these params',
    );
  });

  it('a broken cassette is one line naming its file and line at validate, exit 2', async () => {
    const broken = join(dir, 'broken.jsonl');
    writeFileSync(
      broken,
      `${lines()
        .slice(0, 2)
        .map((l) => JSON.stringify(l))
        .join('\n')}\n{"t": 1, "from": "client"}\n`,
    );
    const file = profile('replay-broken', ALICE, '');
    writeFileSync(file, readFileSync(file, 'utf8').replace('memory.cassette.jsonl', 'broken.jsonl'));
    const result = await runCli(['validate', file]);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/broken\.jsonl:3: .*expected a recorded message/),
    ]);
  });
});
