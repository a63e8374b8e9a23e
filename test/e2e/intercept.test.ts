// Dependency interception for a foreign Node server (effects.intercept): a small SDK 1.32 server (fixtures/
// charge-server, no Faultline code) charges through a loopback HTTP service this test starts, which counts the
// requests it accepted per reference, independently of Faultline. Faultline starts the server with its msw
// preload, opens dependency fault windows on the server's outbound calls and records each accepted request as an
// effect. Checks: Faultline's effect counts equal the service's; commit-then-fail with the naive client (blind
// retries) makes duplicates, seen by both; without interception the effects are n/a and the threshold fails.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PolicyName } from '../../src/client/policies/index.ts';
import { createNetworkBackend } from '../../src/network/index.ts';
import { loadProfile } from '../../src/profile/load.ts';
import { type ProfileResult, runProfile } from '../../src/run/run-profile.ts';

const SERVER = fileURLToPath(new URL('./fixtures/charge-server/server.mjs', import.meta.url));

/** The dependency: accepts every charge, counting them by reference. */
class ChargeService {
  readonly accepted = new Map<string, number>();
  private readonly server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      const { reference } = JSON.parse(body) as { reference: string };
      this.accepted.set(reference, (this.accepted.get(reference) ?? 0) + 1);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: `ch_${reference}` }));
    });
  });
  url = '';

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const address = this.server.address() as { port: number };
    this.url = `http://127.0.0.1:${address.port}`;
  }

  total(): number {
    return [...this.accepted.values()].reduce((a, b) => a + b, 0);
  }

  /** Extra requests beyond the first per reference: what duplicate_effects counts. */
  duplicates(): number {
    return [...this.accepted.values()].reduce((sum, n) => sum + n - 1, 0);
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

const dir = mkdtempSync(join(tmpdir(), 'intercept-'));
const service = new ChargeService();
beforeAll(() => service.start());
afterAll(async () => {
  await service.close();
  rmSync(dir, { recursive: true, force: true });
});

function profile(name: string, opts: { intercept?: boolean; client?: string; faults: string[] }): string {
  const text = `
name: ${name}
description: the charge server under dependency faults
seed: 11
duration: 3s
target:
  kind: stdio
  command: node
  args: [${JSON.stringify(SERVER)}]
  env: { CHARGE_URL: "${service.url}", CHARGE_CLIENT: "${opts.client ?? 'fetch'}" }
client: { policy: resilient, attemptTimeoutMs: 1500, deadlineMs: 4000, maxAttempts: 3, backoff: { initialMs: 20, maxMs: 100 } }
workload:
  concurrency: 2
  mix:
    - { tool: charge, sideEffect: true, args: { reference: { unique: ref- }, amount: 5 } }
${
  opts.intercept === false
    ? ''
    : `effects:
  keys: { charge: reference }
  intercept:
    dependencies: [{ url: "http://127.0.0.1:*/charge", method: POST }]
`
}faults: [${opts.faults.join(', ')}]
expect:
  - duplicate_effects == 0
  - lost_effects == 0
`;
  const file = join(dir, `${name}.yaml`);
  writeFileSync(file, text);
  return file;
}

function run(file: string, policy?: PolicyName): Promise<ProfileResult> {
  return runProfile(loadProfile(file), {
    policy,
    signal: new AbortController().signal,
    network: (s, onDecision) => createNetworkBackend('embedded', { seed: s, onDecision }),
  });
}

const WINDOWS = [
  '{ seam: dependency, kind: status, status: 503, probability: 0.5, start: 0.3s, stop: 1.2s }',
  '{ seam: dependency, kind: commit-then-fail, status: 502, probability: 0.5, start: 1.5s, stop: 2.4s }',
];

describe('dependency interception of a foreign Node stdio server', () => {
  it.each(['fetch', 'http'])(
    'over %s: effects equal the service count; 5xx and commit-then-fail hit on the wire',
    async (client) => {
      service.accepted.clear();
      const r = await run(profile(`intercept-${client}`, { client, faults: WINDOWS }));
      const m = r.report.metrics;
      expect(m.effectsObservable).toBe(true);
      expect(service.total()).toBeGreaterThan(0);
      expect(m.reconciliation.effects).toBe(service.total());
      expect(m.duplicateEffects).toBe(service.duplicates());
      expect(m.unattributedEffects).toBe(0);
      const note = r.report.notes.find((n) => n.startsWith('dependency interception:'));
      expect(note).toMatch(new RegExp(`: [1-9]\\d* process\\(es\\) loaded the preload; ${service.total()} accepted`));
      // Both windows acted on the server's outbound requests (a window that never hit would make the run inert).
      for (const w of r.history.faults) expect(w.hits ?? 0).toBeGreaterThan(0);
      // The faults are on the wire only while their windows are open: every op that did not end ok overlapped a
      // window, and ops after the last window closed went through untouched.
      const windows = r.history.faults.map((w) => ({ on: w.onMs, off: w.offMs ?? Number.POSITIVE_INFINITY }));
      const notOk = r.history.ops!.filter((o) => o.outcome !== 'ok');
      expect(notOk.length).toBeGreaterThan(0);
      for (const o of notOk) expect(windows.some((w) => o.startMs < w.off && o.endMs > w.on)).toBe(true);
      const lastOff = Math.max(...windows.map((w) => w.off));
      expect(r.history.ops!.filter((o) => o.startMs > lastOff && o.outcome === 'ok').length).toBeGreaterThan(0);
    },
  );

  it('control: the naive client retries blindly after commit-then-fail: duplicates, the same number the service saw', async () => {
    service.accepted.clear();
    const r = await run(
      profile('intercept-naive', {
        faults: ['{ seam: dependency, kind: commit-then-fail, status: 502, start: 0.3s, stop: 2.4s }'],
      }),
      'naive',
    );
    const m = r.report.metrics;
    expect(service.duplicates()).toBeGreaterThan(0);
    expect(m.duplicateEffects).toBe(service.duplicates());
    expect(m.reconciliation.effects).toBe(service.total());
    expect(r.report.thresholds.find((t) => t.expr === 'duplicate_effects == 0')?.ok).toBe(false);
  });

  it('fabricated-success answers for the dependency: the service never sees those charges, Faultline counts them lost', async () => {
    service.accepted.clear();
    const r = await run(
      profile('intercept-fabricated', {
        faults: ['{ seam: dependency, kind: fabricated-success, probability: 0.5, start: 0.3s, stop: 2s }'],
      }),
    );
    const m = r.report.metrics;
    const hits = r.history.faults[0].hits ?? 0;
    expect(hits).toBeGreaterThan(0);
    expect(m.reconciliation.effects).toBe(service.total());
    expect(m.lostEffects).toBe(hits); // each fabricated answer is an acknowledged op with no charge behind it
    expect(m.opsOk).toBe(service.total() + hits);
  });

  it('negative control: without interception the effects are n/a and the effect thresholds fail as not measured', async () => {
    service.accepted.clear();
    const r = await run(profile('intercept-off', { intercept: false, faults: [] }));
    expect(service.total()).toBeGreaterThan(0);
    expect(r.report.metrics.effectsObservable).toBe(false);
    expect(r.report.thresholds.find((t) => t.expr === 'duplicate_effects == 0')).toMatchObject({
      ok: false,
      actual: null,
    });
  });
});
