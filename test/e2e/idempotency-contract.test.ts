// faultline idempotency, run as a user runs it: the reference server and the honest fixture pass every check;
// each broken mode of the fixture server (test/e2e/fixtures/idempotency-server) fails its own check by name (the
// negative controls); a tool without a key argument is not-applicable with the reason, never a pass; the JUnit
// file validates against schema/junit.xsd; bad input exits 2 with one line.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO, runCli } from '../helpers/cli.ts';

const FIXTURE = join(REPO, 'test/e2e/fixtures/idempotency-server');
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

interface Row {
  tool: string;
  check: string;
  verdict: string;
  evidence: string;
}

async function contract(args: string[]) {
  const out = mkdtempSync(join(tmpdir(), 'faultline-idempotency-'));
  dirs.push(out);
  const result = await runCli(['idempotency', ...args, '--out', out], { timeoutMs: 150_000 });
  const json = result.code === 2 ? undefined : JSON.parse(readFileSync(join(out, 'idempotency.json'), 'utf8'));
  const rows: Row[] = json?.rows ?? [];
  const verdicts = Object.fromEntries(rows.map((r) => [`${r.tool} ${r.check}`, r.verdict]));
  return { ...result, out, rows, verdicts };
}

function fixture(mode: string, profile = join(FIXTURE, 'profile.yaml')) {
  const orders = join(mkdtempSync(join(tmpdir(), 'faultline-orders-')), 'orders.json');
  dirs.push(resolve(orders, '..'));
  return contract([
    profile,
    '--target-command',
    `node ${join(FIXTURE, 'server.mjs')} ${mode}`,
    '--target-env',
    `ORDERS_FILE=${orders}`,
  ]);
}

const KEYED = ['same-key-same-args', 'same-key-other-args', 'concurrent-same-key', 'retry-after-dropped-answer'];

describe.concurrent('faultline idempotency', () => {
  it('the reference server passes every check on create_payment, and junit.xml is valid JUnit', async () => {
    const r = await contract([]);
    expect(r.code, r.stderr).toBe(0);
    for (const check of [...KEYED, 'hints-honest']) expect(r.verdicts[`create_payment ${check}`], check).toBe('pass');
    expect(r.rows.find((x) => x.check === 'retry-after-dropped-answer')?.evidence).toMatch(/hits 1;.*1 effect\(s\)/);
    const xsd = spawnSync(
      'xmllint',
      ['--noout', '--schema', join(REPO, 'schema/junit.xsd'), join(r.out, 'junit.xml')],
      {
        encoding: 'utf8',
      },
    );
    expect(xsd.status, xsd.stderr).toBe(0);
  }, 180_000);

  it('the honest fixture passes; its read-only tool is n/a for the key checks and honest about readOnlyHint', async () => {
    const r = await fixture('honest');
    expect(r.code, r.stderr).toBe(0);
    for (const check of [...KEYED, 'hints-honest']) expect(r.verdicts[`create_order ${check}`], check).toBe('pass');
    for (const check of KEYED) expect(r.verdicts[`peek_order ${check}`]).toBe('n/a');
    expect(r.verdicts['peek_order hints-honest']).toBe('pass');
  }, 180_000);

  // Each broken mode fails exactly the checks its defect breaks (exit 1); everything else still passes.
  const controls: Record<string, string[]> = {
    // A server that ignores keys refuses no conflict either.
    'ignores-key': [
      'create_order same-key-same-args',
      'create_order same-key-other-args',
      'create_order concurrent-same-key',
      'create_order retry-after-dropped-answer',
      'create_order hints-honest',
    ],
    'accepts-conflict': ['create_order same-key-other-args'],
    racy: ['create_order concurrent-same-key'],
    'lying-read': ['peek_order hints-honest'],
  };
  for (const [mode, failing] of Object.entries(controls)) {
    it(`negative control ${mode}: fails ${failing.join(', ')}`, async () => {
      const r = await fixture(mode);
      expect(r.code, r.stderr).toBe(1);
      const failed = r.rows.filter((x) => x.verdict === 'fail').map((x) => `${x.tool} ${x.check}`);
      expect(failed.sort()).toEqual([...failing].sort());
      if (mode === 'lying-read')
        expect(r.rows.find((x) => x.verdict === 'fail')?.evidence).toMatch(/^lying readOnlyHint: .* made 2 effect/);
    }, 180_000);
  }

  it('a tool with no key argument is n/a for the key checks, with the reason, never a pass', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'faultline-nokey-'));
    dirs.push(dir);
    const profile = join(dir, 'profile.yaml');
    writeFileSync(
      profile,
      readFileSync(join(FIXTURE, 'profile.yaml'), 'utf8').replace(
        /\n +idempotencyKeyArg: key\n +args: \{/,
        '\n      args: { key: "k-{op}",',
      ),
    );
    const r = await fixture('ignores-key', profile);
    for (const check of KEYED) {
      const row = r.rows.find((x) => x.tool === 'create_order' && x.check === check);
      expect(row?.verdict, check).toBe('n/a');
      expect(row?.evidence).toMatch(/no idempotency key argument/);
    }
    // The hint check still judges it: its idempotentHint is a lie without a key too.
    expect(r.verdicts['create_order hints-honest']).toBe('fail');
    expect(r.code).toBe(1);
  }, 180_000);

  it('with no effect source nothing is judged: every row n/a with the reason, and exit 1 (nothing certified)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'faultline-noeffects-'));
    dirs.push(dir);
    const profile = join(dir, 'profile.yaml');
    writeFileSync(profile, readFileSync(join(FIXTURE, 'profile.yaml'), 'utf8').replace(/\neffects:[\s\S]*$/, '\n'));
    const r = await fixture('honest', profile);
    expect(r.rows.length).toBe(10);
    expect(r.rows.filter((x) => x.verdict !== 'n/a')).toEqual([]);
    expect(r.rows.find((x) => x.tool === 'create_order')?.evidence).toMatch(/no effect source/);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/nothing certified/);
  }, 180_000);

  it('bad input: a server that cannot start is one line naming it, exit 2', async () => {
    const r = await contract([join(FIXTURE, 'profile.yaml'), '--target-command', 'node /nonexistent/server.js']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^faultline: target node \/nonexistent\/server.js: the server exited during start-up/),
    ]);
  }, 60_000);

  it('bad input: --key-arg naming no workload tool is one line and exit 2', async () => {
    const r = await contract([join(FIXTURE, 'profile.yaml'), '--key-arg', 'nope=key']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^faultline: --key-arg nope=key: nope is not a tool of .*profile.yaml's workload/),
    ]);
  }, 60_000);
});
