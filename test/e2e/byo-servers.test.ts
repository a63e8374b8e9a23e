// Third-party MCP servers under faults (examples/byo-servers): Faultline's effect counts, read back through the
// server's own tools, checked against an independent read of its state from here (the memory file, the directory
// listing). Each profile runs with its ${tmpdir} replaced by a directory this test owns, so the state outlives
// the run. Controls: a foreign target with no read-back reports n/a and fails its effect threshold; a naive client
// and a concurrent workload make indeterminate and lost writes visible.
import { type ChildProcess, spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { PolicyName } from '../../src/client/policies/index.ts';
import { createNetworkBackend } from '../../src/network/index.ts';
import { loadProfile } from '../../src/profile/load.ts';
import { opEffectKey } from '../../src/run/read-back.ts';
import { type ProfileResult, runProfile } from '../../src/run/run-profile.ts';
import { expectPassed } from '../helpers/run.ts';

const EXAMPLES = fileURLToPath(new URL('../../examples/byo-servers/', import.meta.url));
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** The example with ${tmpdir} pointing at a fresh directory of ours (and `edit` applied), next to its module. */
function example(name: string, edit: (text: string) => string = (t) => t) {
  const dir = mkdtempSync(join(tmpdir(), `byo-${name}-`));
  const state = join(dir, 'state');
  dirs.push(dir);
  for (const f of readdirSync(EXAMPLES)) if (f.endsWith('.ts')) copyFileSync(join(EXAMPLES, f), join(dir, f));
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the ${tmpdir} placeholder is literal text
  const text = edit(readFileSync(join(EXAMPLES, `${name}.yaml`), 'utf8')).replaceAll('${tmpdir}', state);
  writeFileSync(join(dir, `${name}.yaml`), text);
  mkdirSync(state);
  return { file: join(dir, `${name}.yaml`), state };
}

function run(file: string, policy?: PolicyName): Promise<ProfileResult> {
  return runProfile(loadProfile(file), {
    policy,
    signal: new AbortController().signal,
    network: (s, onDecision) => createNetworkBackend('embedded', { seed: s, onDecision }),
  });
}

const metric = (r: ProfileResult) => r.report.metrics;
const threshold = (r: ProfileResult, expr: string) => r.report.thresholds.find((t) => t.expr === expr);

/** Ops the client saw succeed whose key is not among `keys` (read from the state directly): lost writes. */
function lostAgainst(r: ProfileResult, tool: string, argPath: Record<string, unknown>, keys: string[]): number {
  const effects = loadProfileEffects(r);
  const present = new Set(keys.map((k) => opEffectKey(effects, tool, pathArgs(argPath, k))));
  return r.history.ops!.filter((o) => o.tool === tool && o.outcome === 'ok' && !present.has(o.argsKey)).length;
}

function loadProfileEffects(r: ProfileResult) {
  return loadProfile(r.report.file!).profile.effects;
}

/** Arguments carrying `key` where the profile's key path points (entities[0].name or path). */
function pathArgs(shape: Record<string, unknown>, key: string): Record<string, unknown> {
  return JSON.parse(JSON.stringify(shape).replace('"KEY"', JSON.stringify(key)));
}

const memoryNames = (state: string) =>
  readFileSync(join(state, 'memory.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { type: string; name: string })
    .filter((item) => item.type === 'entity')
    .map((item) => item.name);

const MEMORY_ARGS = { entities: [{ name: 'KEY' }] };

describe.concurrent('server-memory over stdio', () => {
  it('under stdio faults: every acknowledged entity is in the file once; read-back and file agree', async () => {
    const { file, state } = example('memory');
    const r = await run(file);
    const names = memoryNames(state);
    const m = metric(r);
    expect(m.effectsObservable).toBe(true);
    expect(m.reconciliation.effects).toBe(names.length); // read-back count = independent count
    expect(new Set(names).size).toBe(names.length);
    expect(m.lostEffects).toBe(lostAgainst(r, 'create_entities', MEMORY_ARGS, names));
    expect(m.lostEffects).toBe(0);
    expect(m.duplicateEffects).toBe(0);
    expect(m.unattributedEffects).toBe(0);
    expect(m.retriedOps).toBeGreaterThan(0); // the faults did something
    expectPassed(r.report);
  });

  it('control: with no retries, lost answers leave ops unknown whose entities the read-back finds', async () => {
    const { file, state } = example('memory');
    const r = await run(file, 'none');
    const m = metric(r);
    expect(m.reconciliation.effects).toBe(memoryNames(state).length);
    expect(m.opsInfo).toBeGreaterThan(0);
    expect(m.reconciliation.infoWithEffectOps.length).toBe(m.opsInfo); // the server did write every one
  });

  it('4 calls in flight, no faults: the server loses acknowledged writes (read-modify-write race)', async () => {
    const { file, state } = example('memory-concurrent');
    const r = await run(file);
    const names = memoryNames(state);
    const m = metric(r);
    expect(m.opsFail).toBe(0);
    expect(m.reconciliation.effects).toBe(names.length);
    expect(m.lostEffects).toBe(lostAgainst(r, 'create_entities', MEMORY_ARGS, names));
    expect(m.lostEffects).toBeGreaterThan(0);
    expect(m.opsOk - (m.lostEffects ?? Number.NaN)).toBe(names.length);
    expect(threshold(r, 'lost_effects == 0')?.ok).toBe(false);
  });

  it('negative control: the same server without read-back reports effects n/a and fails lost_effects == 0', async () => {
    const { file } = example('memory-concurrent', (t) => t.replace(/^effects:\n(?: {2}.*\n)+/m, ''));
    const r = await run(file);
    expect(loadProfile(file).profile.effects).toBeUndefined();
    expect(metric(r).effectsObservable).toBe(false);
    expect(r.report.thresholds.find((t) => t.expr === 'lost_effects == 0')).toMatchObject({ ok: false, actual: null });
  });
});

describe.concurrent('server-filesystem over stdio', () => {
  it('under lost requests, truncated answers and a crash: the files on disk are the read-back', async () => {
    const { file, state } = example('filesystem');
    const r = await run(file);
    const files = readdirSync(state);
    const m = metric(r);
    expect(m.effectsObservable).toBe(true);
    expect(m.reconciliation.effects).toBe(files.length);
    expect(m.lostEffects).toBe(lostAgainst(r, 'write_file', { path: 'KEY' }, files));
    expect(m.lostEffects).toBe(0);
    expect(m.unattributedEffects).toBe(0);
    expect(m.retriedOps).toBeGreaterThan(0);
    expect(r.report.notes.some((n) => /1 killed by a crash fault/.test(n))).toBe(true);
    expectPassed(r.report);
  });
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('server-everything over Streamable HTTP', () => {
  let child: ChildProcess | undefined;
  afterAll(() => {
    child?.kill('SIGKILL');
  });

  it('under network and HTTP-edge faults: retries measured, effects n/a (no state to read back)', async () => {
    const port = await freePort();
    child = spawn(
      process.execPath,
      ['node_modules/@modelcontextprotocol/server-everything/dist/index.js', 'streamableHttp'],
      { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    await new Promise<void>((resolve, reject) => {
      child!.stderr!.on('data', (d: Buffer) => /listening on port/.test(d.toString()) && resolve());
      child!.once('exit', () => reject(new Error('server-everything exited')));
    });
    const { file } = example('everything', (t) => t.replace('127.0.0.1:3001', `127.0.0.1:${port}`));
    const r = await run(file);
    const m = metric(r);
    expect(m.opsFail).toBe(0);
    expect(m.retriedOps).toBeGreaterThan(0);
    expect(m.retrySuccessRate).toBe(1);
    expect(m.effectsObservable).toBe(false);
    expect(threshold(r, 'duplicate_effects == 0')).toMatchObject({ ok: false, actual: null });
    expect(r.report.verdict).toBe('fail');
  });
});
