// Bring your own client: the example module (examples/own-client/retrying-client.ts) against the reference server
// under network-reset (the link resets answers, then goes down). Its retries happen inside it; the harness counts
// them on the wire, and the effect metrics judge them: this wrapper retries with the op's one idempotency key, so
// nothing is charged twice. A client that never retries (the negative control) shows the same faults as failures.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { METRICS } from '../../src/measure/metric-table.ts';
import { createNetworkBackend } from '../../src/network/index.ts';
import { loadProfile } from '../../src/profile/load.ts';
import { type ProfileResult, runProfile } from '../../src/run/run-profile.ts';
import { REPO, runCli } from '../helpers/cli.ts';
import { shippedProfile } from '../helpers/run.ts';

const EXAMPLE = join(REPO, 'examples/own-client/retrying-client.ts');
const dir = mkdtempSync(join(tmpdir(), 'faultline-client-module-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const metric = (r: ProfileResult, name: string) => METRICS[name].get(r.report.metrics).value;

function run(clientModule: string): Promise<ProfileResult> {
  return runProfile(loadProfile(shippedProfile('network-reset')), {
    clientModule,
    signal: new AbortController().signal,
    network: (seed, onDecision) => createNetworkBackend('embedded', { seed, onDecision }),
  });
}

describe.concurrent('a client module under network faults', () => {
  it('has its retried ops and their outcomes measured at the transport', async () => {
    const result = await run(EXAMPLE);
    const attempts = result.history.attempts!;
    const ops = result.history.ops!;
    // Every op's attempts are what went on the wire: numbered 1.., tagged with the op's trace id by the harness.
    expect(attempts.length).toBeGreaterThan(ops.length);
    // A refused reconnect during an op is one of its attempts (client-module-attempts.test.ts counts them exactly);
    // how many ops meet the down link depends on the machine's speed.
    expect(metric(result, 'retried_ops')).toBeGreaterThanOrEqual(1);
    expect(metric(result, 'retry_success_rate')).toBeGreaterThanOrEqual(0.9);
    // The reference server sees the effects: they are measured, and the one key per op holds.
    expect(metric(result, 'duplicate_effects')).toBe(0);
    expect(metric(result, 'ops')).toBe(ops.length);
    expect(result.report.notes).toContain(
      `client: your module ${EXAMPLE} (its own retries; attempts observed on the wire)`,
    );
  }, 90_000);

  it('shows a client that never retries failing the same faults (negative control)', async () => {
    const once = join(dir, 'once.ts');
    writeFileSync(
      once,
      `import { Client } from '@modelcontextprotocol/sdk/client/index.js';
export default async function ({ newTransport }) {
  const client = new Client({ name: 'once', version: '1' });
  await client.connect(newTransport());
  return { callTool: (p) => client.callTool(p, undefined, { timeout: 1000 }), close: () => client.close() };
}
`,
    );
    const result = await run(once);
    // One attempt per op: an op whose attempt failed is never recovered.
    expect(result.history.attempts!.length).toBe(result.history.ops!.length);
    expect(metric(result, 'retried_ops')).toBeGreaterThan(0);
    expect(metric(result, 'retry_success_rate')).toBe(0);
    expect(metric(result, 'ops_fail')! + metric(result, 'ops_info')!).toBeGreaterThan(0);
    expect(result.report.verdict).toBe('fail');
  }, 90_000);

  it('refuses a module that exports no factory, in one line', async () => {
    const bad = join(dir, 'bad.mjs');
    writeFileSync(bad, 'export const x = 1;\n');
    const r = await runCli(['run', shippedProfile('baseline'), '--client-module', bad, '--out', join(dir, 'o')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `faultline: client module ${bad}: expected a default export (or createClient) function ({ newTransport }) => client`,
    );
  }, 60_000);
});
