// faultline replay compares decisions op by op (issue 13 item 7): run a failing profile, replay its report from
// another directory and get "decisions identical (N)"; edit the profile between run and replay and get the warning
// and the first divergence, naming the op, the stream and the decision it drew then and now.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseHistories } from '../../src/report/history-file.ts';
import { REPO, runCli } from '../helpers/cli.ts';
import { type ReferenceServer, serveReference } from '../helpers/serve.ts';

// Fails on purpose and fast: the payments API fabricates every charge, so lost_effects == 0 fails (exit 1).
const PROFILE = `name: replayed
description: a fabricated success fails lost_effects == 0
seed: 5
duration: 1s
workload:
  concurrency: 1
  ops: 2
  mix:
    - tool: create_payment
      args: { customer_id: "cus_{op}", amount_cents: { int: [100, 50000] }, currency: USD }
faults:
  - { seam: dependency, kind: fabricated-success, dependency: payments, method: POST, start: 0s }
expect:
  - lost_effects == 0
`;

describe('faultline replay', () => {
  const runDir = mkdtempSync(join(tmpdir(), 'faultline-replay-run-'));
  const elsewhere = mkdtempSync(join(tmpdir(), 'faultline-replay-cwd-'));
  const file = join(runDir, 'replayed.yaml');
  const report = join(runDir, 'out', 'report.json');

  beforeAll(async () => {
    writeFileSync(file, PROFILE);
    const run = await runCli(['run', file, '--out', 'out'], { cwd: runDir, timeoutMs: 90_000 });
    expect(run.code).toBe(1);
  }, 120_000);

  it('from another directory: the same decisions, op by op', async () => {
    // Plan decisions: the timeline's fault and on (no off: it stays until the last op), each op's tool and amount.
    const historyFile = join(runDir, 'out', 'history.jsonl');
    const [logged] = Object.values(parseHistories(readFileSync(historyFile, 'utf8'), historyFile));
    expect([...logged.decisions].filter((d) => !d.keyed)).toHaveLength(6);
    const same = await runCli(['replay', report, '--out', 'replay'], { cwd: elsewhere, timeoutMs: 90_000 });
    expect(same.code).toBe(1); // it fails again, as it should
    expect(same.stderr).toMatch(new RegExp(`replaying replayed from ${file} \\(seed 5, policy resilient\\)`));
    expect(same.stderr).not.toMatch(/has changed since the run/);
    expect(same.stderr).toMatch(/decisions identical \(6\) to the original run, op by op/);
    const hash = (path: string) => JSON.parse(readFileSync(path, 'utf8')).profiles[0].decisionLogSha256;
    expect(hash(join(elsewhere, 'replay', 'report.json'))).toBe(hash(report));
  });

  it('after the profile was edited: the warning and the first divergence (op, stream, then and now)', async () => {
    // The amount range changes: op 0 draws another amount from the same seed.
    writeFileSync(file, PROFILE.replace('int: [100, 50000]', 'int: [100, 60000]'));
    const edited = await runCli(['replay', report, '--out', 'replay-edited'], { cwd: elsewhere, timeoutMs: 90_000 });
    expect(edited.stderr).toMatch(new RegExp(`warning: ${file} has changed since the run`));
    expect(edited.stderr).toMatch(
      /decisions DIFFER from the original run: first divergence at op op-00000: workload\/op0 arg was \d+, now \d+/,
    );
  });
});

// The original run named its server and client on the command line (relative paths, from its own directory):
// the replay, started elsewhere, runs the same server and client again. The profile's own target cannot start, so
// a replay that forgot the flags would fail with exit 2.
describe('faultline replay of a run with --mcp-config, --server and --client-module', () => {
  const runDir = mkdtempSync(join(tmpdir(), 'faultline-replay-flags-'));
  const elsewhere = mkdtempSync(join(tmpdir(), 'faultline-replay-flags-cwd-'));
  const memory = join(REPO, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js');
  const clientModule = relative(runDir, join(REPO, 'examples/own-client/retrying-client.ts'));
  const report = join(runDir, 'out', 'report.json');

  beforeAll(async () => {
    writeFileSync(join(runDir, 'wrapper.mjs'), `await import(${JSON.stringify(memory)});\n`);
    const server = {
      command: process.execPath,
      args: ['wrapper.mjs'],
      env: { MEMORY_FILE_PATH: join(runDir, 'm.jsonl') },
    };
    writeFileSync(join(runDir, 'mcp.json'), JSON.stringify({ mcpServers: { mem: server } }));
    writeFileSync(
      join(runDir, 'p.yaml'),
      `name: flagged
description: the server and the client come from the command line
duration: 1s
target: { kind: stdio, command: /nonexistent/faultline-server }
workload:
  concurrency: 1
  ops: 3
  mix:
    - tool: create_entities
      args: { entities: { list: [ { object: { name: { unique: e- }, entityType: t, observations: { list: [] } } } ] } }
expect:
  - ops_fail == 0
`,
    );
    const args = ['run', 'p.yaml', '--mcp-config', 'mcp.json', '--server', 'mem', '--client-module', clientModule];
    const run = await runCli([...args, '--out', 'out'], { cwd: runDir, timeoutMs: 90_000 });
    expect(run.code, run.stderr).toBe(0);
  }, 120_000);

  it('keeps the flags in report.json, paths absolute', () => {
    expect(JSON.parse(readFileSync(report, 'utf8')).invocation).toEqual({
      mcpConfig: join(runDir, 'mcp.json'),
      server: 'mem',
      clientModule: join(REPO, 'examples/own-client/retrying-client.ts'),
      cwd: runDir,
    });
  });

  it('replays from another directory with the same server and client', async () => {
    const again = await runCli(['replay', report, '--all', '--out', 'replay'], { cwd: elsewhere, timeoutMs: 90_000 });
    expect(again.code, again.stderr).toBe(0);
    const replayed = JSON.parse(readFileSync(join(elsewhere, 'replay', 'report.json'), 'utf8'));
    expect(replayed.profiles[0].notes).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^stdio: the client spawned \d+ server process/),
        `client: your module ${join(REPO, 'examples/own-client/retrying-client.ts')} (its own retries; attempts observed on the wire)`,
      ]),
    );
    expect(replayed.invocation.cwd).toBe(runDir);
  }, 120_000);
});

// A run allowed a target off this machine (--allow-non-loopback): the replay is allowed it too, as the run's other
// flags are applied again; a report without it (the negative control) is refused as the run itself would be.
describe('faultline replay of a run with --allow-non-loopback', () => {
  const token = 'replay-non-loopback-token';
  const runDir = mkdtempSync(join(tmpdir(), 'faultline-replay-far-'));
  const report = join(runDir, 'out', 'report.json');
  let server: ReferenceServer | undefined;

  beforeAll(async () => {
    // Reached as 0.0.0.0 with nothing in between (no network fault, no proxy): that Host is answered too.
    server = await serveReference(token, ['0.0.0.0']);
    process.env.FAULTLINE_REPLAY_FAR_TOKEN = token;
    // 0.0.0.0 is not a loopback address, yet on Linux connecting to it reaches this machine: the same server.
    const far = (url: string) => url.replace('127.0.0.1', '0.0.0.0');
    writeFileSync(
      join(runDir, 'far.yaml'),
      `name: far
description: a url target that is not a loopback address
seed: 3
duration: 1s
target: { kind: url, url: ${far(server.mcpUrl)}, admin: ${far(server.adminUrl)}, adminTokenEnv: FAULTLINE_REPLAY_FAR_TOKEN }
workload:
  concurrency: 1
  ops: 2
  mix:
    - tool: search_documents
      args: { query: invoice }
expect:
  - ops_fail == 0
`,
    );
    const run = await runCli(['run', 'far.yaml', '--allow-non-loopback', '--out', 'out'], {
      cwd: runDir,
      timeoutMs: 90_000,
    });
    expect(run.code, run.stderr).toBe(0);
  }, 120_000);

  afterAll(() => server?.stop());

  it('keeps the flag in report.json and applies it again', async () => {
    expect(JSON.parse(readFileSync(report, 'utf8')).invocation).toEqual({ allowNonLoopback: true, cwd: runDir });
    const again = await runCli(['replay', report, '--all', '--out', join(runDir, 'replay')], { timeoutMs: 90_000 });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/replaying far from .*far\.yaml \(seed 3, policy resilient, --allow-non-loopback as/);
  }, 120_000);

  it('negative control: the same report without the flag is refused in one line, exit 2', async () => {
    const without = JSON.parse(readFileSync(report, 'utf8'));
    delete without.invocation.allowNonLoopback;
    const file = join(runDir, 'without.json');
    writeFileSync(file, JSON.stringify(without));
    const refused = await runCli(['replay', file, '--all', '--out', join(runDir, 'refused')], { timeoutMs: 90_000 });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /target\.url http:\/\/0\.0\.0\.0:\d+\/mcp: not a loopback address; pass --allow-non-loopback/,
    );
  }, 120_000);
});
