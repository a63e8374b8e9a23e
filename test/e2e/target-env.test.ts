// A stdio server's environment from the command line: --target-env KEY=VALUE reaches a --target-command server,
// and an --mcp-config entry's `env` reaches its server (with --target-env over it). server-memory writes its graph
// to MEMORY_FILE_PATH, so the file landing in this test's directory proves the variable got there; without it
// the server writes beside its own code.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO, runCli } from '../helpers/cli.ts';

const MEMORY = join(REPO, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js');
const dir = mkdtempSync(join(tmpdir(), 'faultline-target-env-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const profile = join(dir, 'p.yaml');
writeFileSync(
  profile,
  `name: memory-env
duration: 1s
workload:
  concurrency: 1
  mix:
    - tool: create_entities
      args:
        entities: { list: [ { object: { name: { unique: ent- }, entityType: thing, observations: { list: [] } } } ] }
expect:
  - ops_fail == 0
`,
);

/** The entity names in a server-memory graph file (one JSON object a line). */
const entitiesIn = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { type: string; name: string })
    .filter((e) => e.type === 'entity');

describe.concurrent('a stdio server gets the environment the command line gives it', () => {
  it('--target-env KEY=VALUE reaches a --target-command server, and report.json keeps it for replay', async () => {
    const graph = join(dir, 'by-flag.jsonl');
    const out = join(dir, 'o1');
    const r = await runCli([
      'run',
      profile,
      '--target-command',
      `${process.execPath} ${MEMORY}`,
      '--target-env',
      `MEMORY_FILE_PATH=${graph}`,
      '--target-env',
      'UNUSED_BY_THE_SERVER=1',
      '--out',
      out,
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(graph)).toBe(true);
    const ops = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    expect(entitiesIn(graph).length).toBe(ops.profiles[0].metrics.opsOk);
    expect(ops.invocation.targetEnv).toEqual([`MEMORY_FILE_PATH=${graph}`, 'UNUSED_BY_THE_SERVER=1']);
  }, 90_000);

  it("an --mcp-config entry's env reaches its server; --target-env goes over it", async () => {
    const fromConfig = join(dir, 'by-config.jsonl');
    const config = join(dir, 'mcp.json');
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: { mem: { command: process.execPath, args: [MEMORY], env: { MEMORY_FILE_PATH: fromConfig } } },
      }),
    );
    const r = await runCli(['run', profile, '--mcp-config', config, '--server', 'mem', '--out', join(dir, 'o2')]);
    expect(r.code, r.stderr).toBe(0);
    expect(entitiesIn(fromConfig).length).toBeGreaterThan(0);

    const overridden = join(dir, 'over-config.jsonl');
    const o = await runCli([
      'run',
      profile,
      '--mcp-config',
      config,
      '--server',
      'mem',
      '--target-env',
      `MEMORY_FILE_PATH=${overridden}`,
      '--out',
      join(dir, 'o3'),
    ]);
    expect(o.code, o.stderr).toBe(0);
    expect(entitiesIn(overridden).length).toBeGreaterThan(0);
  }, 90_000);

  it('a malformed --target-env, or one with no stdio server to go to, is one line and exit 2', async () => {
    const cases: [string[], RegExp][] = [
      [
        ['--target-command', `${process.execPath} ${MEMORY}`, '--target-env', 'NO_EQUALS_SIGN'],
        /^faultline: --target-env NO_EQUALS_SIGN: expected KEY=VALUE with KEY an environment variable name$/,
      ],
      [['--target-env', 'A=1'], /^faultline: --target-env sets the environment of a stdio server: pass/],
      [['--target-url', 'http://127.0.0.1:9/mcp', '--target-env', 'A=1'], /^faultline: --target-env sets the/],
    ];
    for (const [flags, expected] of cases) {
      const r = await runCli(['validate', profile, ...flags]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr.trim()).toMatch(expected);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
  }, 60_000);
});
