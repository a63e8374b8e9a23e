// validate and plan take the run's target flags: with --target-command, a profile written for another server is
// loaded against that one, and validate starts it and checks the workload against its tools/list (preflight.ts).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO, runCli } from '../helpers/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'faultline-target-flags-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const memory = `${process.execPath} ${join(REPO, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js')}`;
// No target: the reference server, which has no create_entities (so without the flag it does not load).
const profile = (tool: string) => `name: for-memory
description: written for server-memory, run against it by flag
duration: 1s
workload:
  concurrency: 1
  mix:
    - { tool: ${tool}, args: { entities: { list: [] } } }
`;

describe('validate and plan with --target-command', () => {
  const good = join(dir, 'good.yaml');
  const typo = join(dir, 'typo.yaml');
  writeFileSync(good, profile('create_entities'));
  writeFileSync(typo, profile('create_entitie'));

  it('validate: loads against the target and checks its tools/list; a typo is exit 2 with a did-you-mean', async () => {
    const ok = await runCli(['validate', good, '--target-command', memory]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/^ok .*good\.yaml \(its 9 tools listed by the target fit the workload\)$/m);
    const bad = await runCli(['validate', typo, '--target-command', memory]);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim()).toMatch(
      /^faultline: .*typo\.yaml: workload\.mix\[0\]\.tool: the server has no tool "create_entitie" \(did you mean "create_entities"\?\); it lists: create_entities, /,
    );
  }, 60_000);

  it('validate: a stdio target written in the profile gets the same tools/list check as the flag', async () => {
    const inProfile = (tool: string) =>
      profile(tool).replace(
        'duration: 1s\n',
        `duration: 1s\ntarget: { kind: stdio, command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(memory.split(' ')[1])}] }\n`,
      );
    const goodHere = join(dir, 'good-in-profile.yaml');
    const typoHere = join(dir, 'typo-in-profile.yaml');
    writeFileSync(goodHere, inProfile('create_entities'));
    writeFileSync(typoHere, inProfile('create_entitie'));
    const ok = await runCli(['validate', goodHere]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/^ok .*good-in-profile\.yaml \(its 9 tools listed by the target fit the workload\)$/m);
    const bad = await runCli(['validate', typoHere]);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim()).toMatch(
      /^faultline: .*typo-in-profile\.yaml: workload\.mix\[0\]\.tool: the server has no tool "create_entitie" \(did you mean "create_entities"\?\)/,
    );
  }, 60_000);

  it('validate: a url in the profile that nothing answers is one line naming the file, exit 2', async () => {
    const file = join(dir, 'url-down.yaml');
    writeFileSync(
      file,
      profile('create_entities').replace(
        'duration: 1s\n',
        'duration: 1s\ntarget: { kind: http, url: "http://127.0.0.1:9/mcp" }\n',
      ),
    );
    const r = await runCli(['validate', file]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(
      /^faultline: .*url-down\.yaml: target\.url http:\/\/127\.0\.0\.1:9\/mcp: could not connect/,
    );
  }, 60_000);

  it('control: without the flag the profile is checked against the reference tools and refused', async () => {
    const r = await runCli(['validate', good]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/create_entities/);
  });

  it('plan: takes the flag (the profile plans against the named target)', async () => {
    const r = await runCli(['plan', good, '--target-command', memory, '--ops', '1', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).ops[0].tool).toBe('create_entities');
    expect((await runCli(['plan', good])).code).toBe(2);
  });
});
