// Targets other than the reference server over HTTP: the reference server over stdio (spawned by the client,
// faults on its stdout, crash and respawn with the ledger kept) and a server outside the harness's process tree
// reached by URL and controlled through its admin endpoint.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StdioEdgeController } from '../../src/faults/edge/stdio/controller.ts';
import { createNetworkBackend } from '../../src/network/index.ts';
import { parseProfile } from '../../src/profile/load.ts';
import { runProfile } from '../../src/run/run-profile.ts';
import { remoteTargetFrom, TargetConfigError } from '../../src/targets/remote-target.ts';
import { StdioTarget } from '../../src/targets/stdio-target.ts';
import { runCli } from '../helpers/cli.ts';
import { expectPassed, failing, runShipped } from '../helpers/run.ts';
import { type ReferenceServer, serveReference } from '../helpers/serve.ts';

describe('stdio target: the ledger outlives the server process', () => {
  it('keeps effects of a killed child (streamed on stderr) and hands them to the next one', async () => {
    const edge = new StdioEdgeController();
    const target = new StdioTarget({ seed: 2, edge });
    const clients: Client[] = [];
    try {
      const first = new Client({ name: 't', version: '0' });
      clients.push(first);
      await first.connect(target.createTransport());
      const pay = (key: string) => ({
        name: 'create_payment',
        arguments: { customer_id: 'cus_1', amount_cents: 900, currency: 'EUR', idempotency_key: key },
      });
      await first.callTool(pay('kill-test-key-1'));
      const pid = target.pid;
      expect(pid).toBeTypeOf('number');
      target.kill();
      await expect.poll(() => target.alive, { timeout: 5000 }).toBe(false);
      // The child is gone: what the harness knows came from its stderr.
      const ledger = await target.ledger();
      expect(ledger).toEqual([expect.objectContaining({ kind: 'payment.charge', idempotencyKey: 'kill-test-key-1' })]);

      const second = new Client({ name: 't', version: '0' });
      clients.push(second);
      await second.connect(target.createTransport());
      expect(target.pid).not.toBe(pid);
      // Same key again: the payments API (restored from the snapshot) replays instead of charging twice.
      await second.callTool(pay('kill-test-key-1'));
      await second.callTool(pay('kill-test-key-2'));
      const after = await target.ledger();
      expect(after.map((e) => e.idempotencyKey)).toEqual(['kill-test-key-1', 'kill-test-key-2']);
      expect(target.spawned).toBe(2);
    } finally {
      for (const c of clients) await c.close().catch(() => {});
      await target.close();
    }
    expect(target.alive).toBe(false);
  }, 60_000);
});

// The stdio profiles' resilient runs are the default suite's (suite-checks/stdio.ts).
describe('stdio profiles: a crash after ops that ended, and the control', () => {
  // The shipped profile kills the child at 1.2 s, so how much it committed first depends on the machine (a stalled
  // child may have committed nothing). One op at a time with the kill at op 8 fixes it: op 8 is issued only once
  // ops 0 to 7 have ended, so each of their payments was charged by the child that is then killed.
  it('stdio-crash, killed at op 8 of one at a time: the dead child’s effects are all in the ledger', async () => {
    const killAt = 8;
    const r = await runShipped('stdio-crash', undefined, undefined, undefined, (profile) => {
      profile.workload = { ...profile.workload, rate: undefined, concurrency: 1, ops: 16 };
      profile.faults = [{ seam: 'server', kind: 'crash', signal: 'SIGKILL', fromOp: killAt, toOp: killAt }];
    });
    const crash = r.history.faults[0];
    expect(crash.onMs).toBeGreaterThan(0);
    const ops = r.history.ops!;
    const index = (o: (typeof ops)[number]) => Number(o.opId.slice('op-'.length));
    const payment = (o: (typeof ops)[number]) => o.tool === 'create_payment' && o.outcome === 'ok';
    const before = ops.filter((o) => index(o) < killAt && payment(o));
    expect(before.length).toBeGreaterThan(3);
    expect(ops.filter((o) => index(o) < killAt).every((o) => o.endMs <= crash.onMs)).toBe(true);
    expect(ops.filter((o) => index(o) >= killAt).every((o) => o.startMs >= crash.onMs)).toBe(true);
    // Each of them charged once, stamped by the child before it was killed; the rest by the new child.
    const effects = [...r.history.effects];
    const early = effects.filter((e) => e.atMs < crash.onMs);
    expect(early.map((e) => e.traceId).sort()).toEqual(before.map((o) => o.opId).sort());
    expect(effects.length).toBe(ops.filter(payment).length);
    expect(r.report.metrics).toMatchObject({ opsFail: 0, duplicateEffects: 0, lostEffects: 0 });
    expect(r.report.notes.find((n) => /spawned 2 server process\(es\); 1 killed/.test(n))).toBeDefined();
  }, 90_000);

  it('stdio-crash control: with no retries every call after the crash fails', async () => {
    const r = await runShipped('stdio-crash', 'none');
    expectPassed(r.report); // controls.none: error_rate > 0.3
    expect(r.report.metrics.opsOk).toBeLessThan(r.report.metrics.ops * 0.7);
  }, 90_000);
});

describe('url target: a reference server outside the harness, controlled through its admin endpoint', () => {
  const token = 'url-target-test-token';
  let server: ReferenceServer | undefined;
  let mcpUrl = '';
  let adminUrl = '';
  let dir = '';

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'faultline-url-'));
    // The non-loopback test reaches it as 0.0.0.0, straight (no network fault, no proxy): that Host is answered too.
    server = await serveReference(token, ['0.0.0.0']);
    ({ mcpUrl, adminUrl } = server);
  }, 30_000);

  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const profileYaml = (extra = '') => `
name: url-target-5xx
description: payments fail for a second on a server the harness did not start
seed: 4
duration: 4s
target:
  kind: url
  url: ${mcpUrl}
  admin: ${adminUrl}
  adminTokenEnv: FAULTLINE_URL_TEST_TOKEN
client: { attemptTimeoutMs: 2000, deadlineMs: 6000, maxAttempts: 8, backoff: { initialMs: 100, maxMs: 600 } }
workload:
  rate: 15
  mix:
    - tool: create_payment
      args:
        customer_id: cus_{op}
        amount_cents: { int: [100, 900] }
        currency: EUR
faults:
  - { seam: dependency, kind: status, dependency: payments, status: 503, probability: 0.6, start: 1s, stop: 2s }
  - { seam: dependency, kind: commit-then-fail, dependency: payments, status: 503, probability: 0.5, start: 1s, stop: 2s }
${extra}
expect:
  - ops_fail == 0
  - duplicate_effects == 0
  - lost_effects == 0
`;

  it('runs a dependency-fault profile (straight to the server: no network fault), with faults and ledger over the admin endpoint', async () => {
    process.env.FAULTLINE_URL_TEST_TOKEN = token;
    const loaded = parseProfile(join(dir, 'url.yaml'), profileYaml());
    const run = () =>
      runProfile(loaded, {
        signal: new AbortController().signal,
        network: (s, onDecision) => createNetworkBackend('embedded', { seed: s, onDecision }),
      });
    const r = await run();
    expect(failing(r)).toBe('');
    expect(r.report.metrics.retriedOps).toBeGreaterThan(0); // the faults reached the remote server
    // Its ledger, read over HTTP: one effect per ok write, plus those of writes whose answer was lost (info: on a
    // busy machine an attempt can time out after the charge; the lookup or retry then leaves the op uncertain).
    const effectsOf = (x: typeof r) =>
      x.history.ops!.filter((o) => o.sideEffecting && o.outcome === 'ok').length +
      x.report.metrics.reconciliation.infoWithEffectOps.length;
    expect(r.history.effects).toHaveLength(effectsOf(r));
    expect([...r.history.decisions].some((d) => d.stream.startsWith('dependency') || d.what.includes('payments'))).toBe(
      true,
    );
    // A second run starts from a reset server: the first run's effects are not counted again.
    const again = await run();
    expect(failing(again)).toBe('');
    expect(again.history.effects).toHaveLength(effectsOf(again));
  }, 90_000);

  it('refuses faults the target cannot take, at load time', () => {
    const crash = profileYaml('  - { seam: server, kind: crash, start: 1s }');
    expect(() => parseProfile('crash.yaml', crash)).toThrow(
      /fault kind crash needs a target the harness can restart; target kind url cannot take it/,
    );
    const noAdmin = profileYaml().replace(/^ {2}admin: .*\n/m, '');
    expect(() => parseProfile('no-admin.yaml', noAdmin)).toThrow(/needs a target with a control channel/);
    const stdioNetwork = `
name: stdio-latency
description: x
target: { kind: reference-stdio }
workload: { rate: 5, mix: [{ tool: search_documents, args: { query: x } }] }
faults: [{ seam: network, kind: latency, latency: 100, start: 1s }]
`;
    expect(() => parseProfile('stdio.yaml', stdioNetwork)).toThrow(/needs a target reached over TCP/);
  });

  // 0.0.0.0 is not a loopback address, yet on Linux connecting to it reaches this machine: the same server.
  const far = (url: string) => url.replace('127.0.0.1', '0.0.0.0');

  /** The profile without its faults, `duration` long, at these URLs, written to `name`.yaml. */
  const writeFaultless = (name: string, duration: string, urls: { mcp: string; admin: string }) => {
    const file = join(dir, `${name}.yaml`);
    writeFileSync(
      file,
      profileYaml()
        .replace(/^faults:\n(?: {2}- .*\n)+/m, '')
        .replace('duration: 4s', `duration: ${duration}`)
        .replace(mcpUrl, urls.mcp)
        .replace(adminUrl, urls.admin),
    );
    return file;
  };

  it('faultline run refuses a non-loopback url target (exit 2) unless --allow-non-loopback', async () => {
    const file = writeFaultless('far', '2s', { mcp: far(mcpUrl), admin: far(adminUrl) });
    const refused = await runCli(['run', file, '--out', join(dir, 'out')], { timeoutMs: 60_000 });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      `faultline: target.url ${far(mcpUrl)}: not a loopback address; pass --allow-non-loopback`,
    );
    process.env.FAULTLINE_URL_TEST_TOKEN = token;
    const allowed = await runCli(['run', file, '--allow-non-loopback', '--out', join(dir, 'out')], {
      timeoutMs: 60_000,
    });
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(allowed.stdout).toMatch(/✔ passed \(1\): url-target-5xx/);
  }, 90_000);

  it('a url target that refuses the connection says so in one line (exit 2), not as an internal error', async () => {
    // A server that does not answer the Host 0.0.0.0 (its DNS-rebinding protection), reached as 0.0.0.0.
    const strict = await serveReference(token);
    try {
      const file = writeFaultless('refused', '1s', { mcp: far(strict.mcpUrl), admin: strict.adminUrl });
      process.env.FAULTLINE_URL_TEST_TOKEN = token;
      const refused = await runCli(['run', file, '--allow-non-loopback', '--out', join(dir, 'refused-out')], {
        timeoutMs: 60_000,
      });
      expect(refused.code, refused.stderr).toBe(2);
      expect(refused.stderr).toMatch(
        /^faultline: target\.url http:\/\/0\.0\.0\.0:\d+\/mcp: could not connect \(.*DNS-rebinding/m,
      );
      expect(refused.stderr).not.toMatch(/internal error|\n\s+at /);
    } finally {
      await strict.stop();
    }
  }, 60_000);

  it('refuses a non-loopback URL unless allowed, and a missing admin token', () => {
    const spec = { url: 'http://10.20.30.40:3001/mcp', adminTokenEnv: 'NOPE_TOKEN' };
    expect(() => remoteTargetFrom(spec, false)).toThrow(TargetConfigError);
    expect(() => remoteTargetFrom(spec, false)).toThrow(/--allow-non-loopback/);
    expect(remoteTargetFrom(spec, true).url).toBe(spec.url);
    expect(() => remoteTargetFrom({ ...spec, url: mcpUrl, admin: adminUrl }, false, {})).toThrow(
      /NOPE_TOKEN .* is empty/,
    );
    expect(() => remoteTargetFrom({ ...spec, url: mcpUrl }, false).kill()).toThrow(/a target the harness can restart/);
  });
});
