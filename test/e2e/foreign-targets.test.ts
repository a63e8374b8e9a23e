// Servers we did not write, as a user points Faultline at them: @modelcontextprotocol/server-memory over stdio
// (spawned by the harness, crashed once) and @modelcontextprotocol/server-everything over Streamable HTTP (behind
// Toxiproxy, connections reset). Retry metrics are measured; effect metrics are n/a (nothing sees their effects)
// and an effect threshold fails as not measured. Plus the one-line refusals: unknown tool, failing hook, bad flags.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { METRICS } from '../../src/measure/metric-table.ts';
import { createNetworkBackend } from '../../src/network/index.ts';
import { parseProfile } from '../../src/profile/load.ts';
import { type ProfileResult, runProfile } from '../../src/run/run-profile.ts';
import { REPO, runCli } from '../helpers/cli.ts';
import { expectPassed } from '../helpers/run.ts';

const MEMORY = join(REPO, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js');
const EVERYTHING = join(REPO, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

const dir = mkdtempSync(join(tmpdir(), 'faultline-foreign-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A metric as reports show it: its value, null when n/a. */
const metric = (r: ProfileResult, name: string) => METRICS[name].get(r.report.metrics).value;
const EFFECT_METRICS = ['duplicate_effects', 'ghost_effects', 'lost_effects'];

function run(yaml: string): Promise<ProfileResult> {
  return runProfile(parseProfile(join(dir, 'p.yaml'), yaml), {
    signal: new AbortController().signal,
    network: (seed, onDecision) => createNetworkBackend('embedded', { seed, onDecision }),
  });
}

/** Where the setup hook leaves a mark, to show it ran before the server with the same ${tmpdir}. */
const marks = join(dir, 'marks.txt');

const memoryProfile = (extra = '') => `
name: memory-crash
description: server-memory over stdio; the harness kills it once and the client's next connect spawns another
seed: 5
duration: 3s
target:
  kind: stdio
  command: ${process.execPath}
  args: [${MEMORY}]
  env: { MEMORY_FILE_PATH: "\${tmpdir}/memory.jsonl" }
setup:
  - command: ${process.execPath}
    args: ["-e", "require('fs').appendFileSync(process.argv[1], process.argv[2] + '\\\\n')", ${marks}, "\${tmpdir}"]
reset:
  - { call: read_graph }
client: { attemptTimeoutMs: 3000, deadlineMs: 20000, maxAttempts: 6, backoff: { initialMs: 100, maxMs: 600 } }
workload:
  rate: 10
  mix:
    - tool: create_entities
      args:
        entities: { list: [ { object: { name: { unique: ent- }, entityType: thing, observations: { list: [] } } } ] }
    - tool: read_graph
faults:
  - { seam: server, kind: crash, start: 1s, stop: 1100ms }
expect:
  - ops_fail == 0
  - duplicate_effects == 0
${extra}`;

describe('a stdio server we did not write (server-memory)', () => {
  let result: ProfileResult;
  beforeAll(async () => {
    result = await run(memoryProfile());
  }, 90_000);

  it('is crashed by the harness and respawned; the retries are measured', () => {
    expect(result.report.notes).toContain('stdio: the client spawned 2 server process(es); 1 killed by a crash fault');
    expect(result.report.metrics.faultWindows[0]).toMatchObject({ kind: 'crash', hits: 1 });
    // Something was in flight or sent into the dead process: at least one op needed a second attempt.
    expect(metric(result, 'retried_ops')).toBeGreaterThanOrEqual(1);
    expect(metric(result, 'retry_success_rate')).not.toBeNull();
    expect(metric(result, 'ops_fail')).toBe(0);
    expect(metric(result, 'ops')).toBeGreaterThan(20);
  });

  it('says its effects are unknown: effect metrics n/a and an effect threshold fails as not measured', () => {
    expect(EFFECT_METRICS.map((name) => metric(result, name))).toEqual([null, null, null]);
    expect(result.report.thresholds.find((t) => t.expr === 'duplicate_effects == 0')).toMatchObject({
      ok: false,
      actual: null,
      na: true,
    });
    expect(result.report.verdict).toBe('fail');
  });

  it('reads side effects from the annotations and ran the setup hook with the run directory', () => {
    expect(result.report.notes).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^tool create_entities: side-effecting \(annotations .*"readOnlyHint":false/),
        expect.stringMatching(/^tool read_graph: read-only \(annotations .*"readOnlyHint":true/),
      ]),
    );
    const runDir = readFileSync(marks, 'utf8').trim().split('\n').at(-1)!;
    expect(runDir).toMatch(/faultline-memory-crash-/);
    expect(existsSync(runDir)).toBe(false); // removed after the run
  });
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('a Streamable HTTP server we did not write (server-everything)', () => {
  let child: ChildProcess;
  let url: string;
  beforeAll(async () => {
    const port = await freePort();
    child = spawn(process.execPath, [EVERYTHING, 'streamableHttp'], {
      env: { ...process.env, PORT: String(port) },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('server-everything did not start')), 30_000);
      child.stderr?.on('data', (d: Buffer) => {
        if (/listening on port/.test(String(d))) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    url = `http://127.0.0.1:${port}/mcp`;
  }, 40_000);
  afterAll(() => {
    child?.kill('SIGKILL');
  });

  it('takes a network fault through Toxiproxy: resets are retried and measured, effects n/a', async () => {
    const result = await run(`
name: everything-reset
description: server-everything over Streamable HTTP; the link resets every answer for 0.8 s
seed: 13
duration: 3s
target: { kind: http, url: "${url}" }
client: { attemptTimeoutMs: 1000, deadlineMs: 6000, maxAttempts: 10, backoff: { initialMs: 50, maxMs: 300 } }
workload:
  rate: 10
  mix:
    - { tool: echo, args: { message: "m-{op}" }, sideEffect: true }
faults:
  - { seam: network, kind: reset_peer, stream: downstream, timeout: 0, start: 500ms, stop: 1300ms }
expect:
  - retry_success_rate >= 0.9
  - duplicate_effects == 0 or n/a
`);
    expect(result.report.metrics.faultWindows[0].hits).toBeGreaterThan(0);
    expect(metric(result, 'retried_ops')).toBeGreaterThanOrEqual(3);
    expect(metric(result, 'retry_success_rate')).toBeGreaterThanOrEqual(0.9);
    expect(EFFECT_METRICS.map((name) => metric(result, name))).toEqual([null, null, null]);
    expectPassed(result.report);
    expect(result.report.notes).toContain('http target: no dependency faults and no ledger (effects unknown)');
  }, 90_000);

  it('is reached with --mcp-config FILE --server NAME, and a typo in the server name is one line', async () => {
    const config = join(dir, 'mcp.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { everything: { type: 'streamable-http', url } } }));
    const profile = join(dir, 'echo.yaml');
    writeFileSync(
      profile,
      'name: echo\ndescription: echo calls\nduration: 1s\nworkload:\n  rate: 5\n  mix:\n    - { tool: echo, args: { message: hi } }\nexpect:\n  - ops_fail == 0\n',
    );
    const ok = await runCli([
      'run',
      profile,
      '--mcp-config',
      config,
      '--server',
      'everything',
      '--out',
      join(dir, 'o1'),
    ]);
    expect(ok.code, ok.stderr).toBe(0);
    const typo = await runCli([
      'run',
      profile,
      '--mcp-config',
      config,
      '--server',
      'everythin',
      '--out',
      join(dir, 'o2'),
    ]);
    expect(typo.code).toBe(2);
    expect(typo.stderr.trim()).toBe(
      `faultline: ${config}: mcpServers.everythin: no such server (did you mean "everything"?); the file has: "everything"`,
    );
    const unknown = await runCli([
      'run',
      profile.replace('echo.yaml', 'echo.yaml'),
      '--target-url',
      url,
      '--out',
      join(dir, 'o3'),
    ]);
    expect(unknown.code, unknown.stderr).toBe(0);
  }, 90_000);
});

describe('one-line refusals', () => {
  it('a workload tool the server does not list: exit 2 with a did-you-mean', async () => {
    const file = join(dir, 'typo.yaml');
    writeFileSync(
      file,
      memoryProfile()
        .replace('- tool: read_graph', '- tool: read_grahp')
        .replace(/^faults:\n.*\n/m, ''),
    );
    const r = await runCli(['run', file, '--out', join(dir, 'o4')], { timeoutMs: 60_000 });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `faultline: ${file}: workload.mix[1].tool: the server has no tool "read_grahp" (did you mean "read_graph"?); it lists: create_entities,`,
    );
    // Checked before --out was created: nothing left behind.
    expect(existsSync(join(dir, 'o4'))).toBe(false);
  }, 60_000);

  it('a server that dies at start: its exit code and last stderr lines, not "Connection closed"; no --out', async () => {
    const file = join(dir, 'dies.yaml');
    writeFileSync(file, memoryProfile().replace(/^faults:\n.*\n/m, ''));
    const die = `${process.execPath} -e "console.error('loading config'); console.error('fatal: no MEMORY_DIR'); process.exit(4)"`;
    const r = await runCli(['run', file, '--target-command', die, '--out', join(dir, 'o6')], { timeoutMs: 60_000 });
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        /^faultline: target .* the server exited during start-up \(exit code 4\); its stderr ends: loading config \| fatal: no MEMORY_DIR$/,
      ),
    ]);
    expect(r.stderr).not.toContain('Connection closed');
    expect(existsSync(join(dir, 'o6'))).toBe(false);
  }, 60_000);

  it('a failing setup hook names itself, its command and its exit code', async () => {
    const yaml = memoryProfile().replace(
      /^setup:\n(?: {2,}.*\n)+/m,
      `setup:\n  - { command: ${process.execPath}, args: ["-e", "console.error('no disk'); process.exit(3)"] }\n`,
    );
    await expect(run(yaml)).rejects.toThrow(
      `setup[0]: ${process.execPath} -e console.error('no disk'); process.exit(3): exited with code 3: no disk`,
    );
  }, 30_000);

  it('two ways to name the target at once', async () => {
    const r = await runCli(['run', '--target-url', 'http://127.0.0.1:1/mcp', '--target-command', 'node s.js']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(
      'faultline: --target-command and --target-url: expected one way to name the target, not 2',
    );
  });
});
