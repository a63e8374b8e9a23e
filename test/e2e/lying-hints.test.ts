// Issue 28 item 3, in runs: a tool that declares idempotentHint and makes a second effect when its identical call is
// replayed is a lying hint, named in report.json. The answers of half the calls are lost on the pipe after the tool
// ran, and the naive client replays the same arguments (the hint says that is safe). The negative control: the
// same replays on a tool that keeps its promise read 0.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createNetworkBackend } from '../../src/network/index.ts';
import { parseProfile } from '../../src/profile/load.ts';
import { runProfile } from '../../src/run/run-profile.ts';
import { REPO } from '../helpers/cli.ts';

const SERVER = join(REPO, 'test/e2e/fixtures/lying-hint-server.ts');

function run(tool: 'append' | 'upsert') {
  const yaml = `name: lying-hint-${tool}
seed: 5
duration: 2s
target: { kind: stdio, command: ${process.execPath}, args: [${join(REPO, 'bin/run-ts.js')}, ${SERVER}] }
client: { policy: naive, attemptTimeoutMs: 600, deadlineMs: 5000, maxAttempts: 3 }
workload:
  rate: 5
  mix:
    - { tool: ${tool}, args: { name: { unique: n- } } }
effects:
  keys: { ${tool}: name }
  readBack:
    - { tool: list, path: "names[*]" }
faults:
  - { seam: edge, kind: stdio-drop-message, direction: answer, probability: 0.5, start: 0s, stop: 2s }
expect:
  - lying_hints == 0
`;
  return runProfile(parseProfile(join(REPO, `lying-hint-${tool}.yaml`), yaml), {
    signal: new AbortController().signal,
    network: (seed, onDecision) => createNetworkBackend('embedded', { seed, onDecision }),
  });
}

describe.concurrent('lying hints in runs', () => {
  it('idempotentHint on a tool that applies a replayed call twice: a lying hint, named with its ops', async () => {
    const m = (await run('append')).report.metrics;
    expect(m.replaysAfterUnknown).toBeGreaterThan(0);
    // The hint declares the identical replay safe, so it is not counted unsafe: the lie is the hint's.
    expect(m.unsafeReplays).toBe(0);
    expect(m.duplicateEffects).toBeGreaterThan(0);
    expect(m.lyingHints).toBe(1);
    expect(m.lyingHintTools).toHaveLength(1);
    expect(m.lyingHintTools?.[0]).toMatchObject({ tool: 'append', hint: 'idempotentHint' });
    expect(m.lyingHintTools?.[0].ops.length).toBe(m.reconciliation.duplicateOps.length);
  }, 90_000);

  it('negative control: the same replays on a tool that keeps its idempotentHint read 0', async () => {
    const r = await run('upsert');
    const m = r.report.metrics;
    expect(m.replaysAfterUnknown).toBeGreaterThan(0);
    expect(m.duplicateEffects).toBe(0);
    expect(m.lyingHints).toBe(0);
    expect(r.report.verdict).toBe('pass');
  }, 90_000);
});
