// Read-back during the run (effects.readBack[i].during): server-memory with 4 calls in flight overwrites entities
// it acknowledged. Sampled mid-run, the read-back sees entities that the final read-back no longer has: made, then
// lost. The control, one call at a time, loses none, so no key seen during the run is gone at the end.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { METRICS } from '../../src/measure/metric-table.ts';
import { createNetworkBackend } from '../../src/network/index.ts';
import { parseProfile } from '../../src/profile/load.ts';
import { runProfile } from '../../src/run/run-profile.ts';
import { REPO } from '../helpers/cli.ts';

const FILE = join(REPO, 'examples/byo-servers/memory-concurrent.yaml');
const MEMORY = join(REPO, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js');

function run(concurrency: number) {
  const yaml = readFileSync(FILE, 'utf8')
    .replace('node_modules/@modelcontextprotocol/server-memory/dist/index.js', MEMORY)
    .replace('concurrency: 4', `concurrency: ${concurrency}`)
    .replace(
      '- { tool: read_graph, path: "entities[*].name" }',
      '- { tool: read_graph, path: "entities[*].name", during: { every: 150ms } }',
    );
  return runProfile(parseProfile(FILE, yaml), {
    signal: new AbortController().signal,
    network: (seed, onDecision) => createNetworkBackend('embedded', { seed, onDecision }),
  });
}

const metric = (r: Awaited<ReturnType<typeof run>>, name: string) => METRICS[name].get(r.report.metrics).value;

// Runs a forgetful server (fixtures/forgetful-server.ts): each write is there for 400 ms, then gone.
function runForgetful() {
  const yaml = `name: forgetful
description: every write acknowledged, then forgotten
duration: 2s
target: { kind: stdio, command: ${process.execPath}, args: [${join(REPO, 'bin/run-ts.js')}, ${join(REPO, 'test/e2e/fixtures/forgetful-server.ts')}] }
workload:
  rate: 5
  mix:
    - { tool: put, args: { name: { unique: n- } } }
effects:
  keys: { put: name }
  readBack:
    - { tool: list, path: "names[*]", during: { every: 50ms } }
expect:
  - lost_effects == 0
`;
  return runProfile(parseProfile(join(REPO, 'forgetful.yaml'), yaml), {
    signal: new AbortController().signal,
    network: (seed, onDecision) => createNetworkBackend('embedded', { seed, onDecision }),
  });
}

describe('read-back during the run', () => {
  it('a write acknowledged, seen mid-run, gone at the end: every one shows as vanished, with its op', async () => {
    const r = await runForgetful();
    const d = r.report.readBackDuring!;
    const ops = metric(r, 'ops')!;
    expect(ops).toBeGreaterThanOrEqual(3);
    // Sampling ends with the workload: the last op's write may fall after the last sample.
    expect(d.keys.length).toBeGreaterThanOrEqual(ops - 1);
    // A write still within its 400 ms at the final read-back is there; every earlier one is gone. At rate 5 that
    // can be the last two or three, so the bound is on when a survivor was first seen, not on how many survive.
    expect(d.vanished).toBeGreaterThanOrEqual(2);
    const newest = Math.max(...d.keys.map((k) => k.firstSeenMs));
    const survivors = d.keys.filter((k) => k.atEnd);
    expect(survivors.every((k) => k.firstSeenMs >= newest - 600)).toBe(true);
    const gone = d.keys.filter((k) => !k.atEnd);
    expect(gone.every((k) => k.outcome === 'ok' && k.lastSeenMs - k.firstSeenMs < 600)).toBe(true);
    expect(metric(r, 'lost_effects')).toBeGreaterThanOrEqual(d.vanished);
  }, 90_000);

  it('server-memory, 4 in flight: keys seen mid-run belong to ops; any gone at the end was acknowledged', async () => {
    const r = await run(4);
    const d = r.report.readBackDuring!;
    expect(d.samples).toBeGreaterThanOrEqual(5);
    expect(d.keys.length).toBeGreaterThan(0);
    expect(d.keys.every((k) => k.opId !== undefined)).toBe(true);
    const gone = d.keys.filter((k) => !k.atEnd);
    // Each vanished key belongs to an op that was told it succeeded: a write made, then lost.
    expect(gone.every((k) => k.opId !== undefined && k.outcome === 'ok')).toBe(true);
    expect(gone.every((k) => k.firstSeenMs <= k.lastSeenMs)).toBe(true);
    expect(r.report.notes.find((n) => n.startsWith('read-back during the run:'))).toMatch(
      new RegExp(`${d.vanished} seen during the run were gone at the end`),
    );
    expect(metric(r, 'lost_effects')).toBeGreaterThanOrEqual(d.vanished);
  }, 90_000);

  it('server-memory, one call at a time (control): every key seen during the run is still there at the end', async () => {
    const r = await run(1);
    const d = r.report.readBackDuring!;
    expect(d.keys.length).toBeGreaterThan(0);
    expect(d.vanished).toBe(0);
    expect(d.keys.every((k) => k.opId !== undefined)).toBe(true);
  }, 90_000);
});
