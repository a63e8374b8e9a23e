// Op windows make counts independent of the machine's speed: the shipped dependency-5xx profile (its 503 windows by
// op index, the first two attempts of ops 10-29) under the naive control, run on the machine as it is and then
// beside CPU burners (one busy-looping node per core, started as the workload starts). The same ops meet the same
// 503s, so the seam's hits, the ops that met a fault, the retried ops and the duplicate charges are equal. With the
// profile's old time windows (0.5 s to 2 s) the loaded run put fewer ops in the window and these counts moved.
//
// The client's and the server's timeouts are raised for both runs: on a machine shared with other work the burners
// can slow an attempt past 2 s, and a timeout is a fault of its own (the machine's, on the clock) that retries and,
// under the naive control, charges twice. What op windows settle is which ops meet the profile's faults.
import type { ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { History } from '../../src/core/history.ts';
import { createNetworkBackend } from '../../src/network/index.ts';
import { loadProfile, parseProfile } from '../../src/profile/load.ts';
import { runProfile } from '../../src/run/run-profile.ts';
import { cpuBurner } from '../helpers/processes.ts';

const PROFILE = join(import.meta.dirname, '../../chaos-profiles/dependency-5xx.yaml');

async function runNaive(loaded: boolean) {
  const burners: ChildProcess[] = [];
  try {
    const shipped = loadProfile(PROFILE);
    const profile = {
      ...shipped.profile,
      target: { ...shipped.profile.target, dependencyTimeoutMs: 60_000 },
      client: { ...shipped.profile.client, attemptTimeoutMs: 60_000, deadlineMs: 120_000 },
    };
    const { report, history } = await runProfile(
      { ...shipped, profile },
      {
        policy: 'naive',
        signal: new AbortController().signal,
        network: (seed, onDecision) => createNetworkBackend('embedded', { seed, onDecision }),
        onPhase: (phase) => {
          if (!loaded || phase !== 'workload') return;
          for (let i = 0; i < availableParallelism(); i++) burners.push(cpuBurner());
        },
      },
    );
    return { report, counts: countsOf(report.metrics, history) };
  } finally {
    for (const b of burners) b.kill('SIGKILL');
  }
}

function countsOf(metrics: { duplicateEffects: number | null; retriedOps: number }, history: History) {
  const faulted = new Set(
    history.attempts!.filter((a) => !a.ok && a.errorCode === 'DEPENDENCY.UNAVAILABLE').map((a) => a.opId),
  );
  return {
    hits: Object.fromEntries(history.faults.map((w) => [w.id, w.hits])),
    faultedOps: [...faulted].sort(),
    retriedOps: metrics.retriedOps,
    duplicateEffects: metrics.duplicateEffects,
  };
}

describe('op windows: counts independent of the machine speed', () => {
  it('dependency-5xx under the naive control: the same hits, faulted ops, retried ops and duplicates, quiet and loaded', async () => {
    const quiet = await runNaive(false);
    const loaded = await runNaive(true);
    // The window was by op, carried per request.
    expect(quiet.report.metrics.faultWindows.map((w) => w.window)).toEqual([
      { kind: 'ops', fromOp: 10, toOp: 29, firstAttempts: 2, scope: 'per-request' },
      { kind: 'ops', fromOp: 10, toOp: 29, firstAttempts: 2, scope: 'per-request' },
    ]);
    // The control fires: there is something to count.
    expect(quiet.counts.duplicateEffects).toBeGreaterThan(0);
    expect(quiet.counts.faultedOps.length).toBeGreaterThan(0);
    // Only ops 10..29 met a fault.
    for (const op of quiet.counts.faultedOps) expect(Number(op.slice(3))).toSatisfy((i: number) => i >= 10 && i <= 29);
    expect(loaded.counts).toEqual(quiet.counts);
    // And the same plan decisions: op windows are logged by op index, not by when their ops ran.
    expect(loaded.report.decisionLogSha256).toBe(quiet.report.decisionLogSha256);
  }, 180_000);
});

// Each seam the shipped profiles now put on op windows, at probability 1 so the hits can be counted beforehand: a
// window over ops 2..5 hits exactly their first attempts' requests (one tools/call each), and only those ops have a
// failed attempt (re-issued or settled by a status lookup). Timeouts are generous: a slow attempt is not a fault.
async function runWindowed(name: string, target: string, fault: string) {
  const text = `name: ${name}
description: op-window hits
seed: 3
duration: 1s
target: ${target}
client: { policy: resilient, attemptTimeoutMs: 5000, deadlineMs: 20000, maxAttempts: 4, backoff: { initialMs: 10, maxMs: 20 } }
workload:
  rate: 10
  mix:
    - tool: create_payment
      args: { customer_id: "cus_{op}", amount_cents: 100, currency: USD }
faults:
  - ${fault}
`;
  const { report, history } = await runProfile(parseProfile(`${name}.yaml`, text), {
    signal: new AbortController().signal,
    network: (seed, onDecision) => createNetworkBackend('embedded', { seed, onDecision }),
  });
  const faulted = history.ops!.filter((o) => o.failedAttempts > 0).map((o) => o.opId);
  return { report, hits: report.metrics.faultWindows.map((w) => w.hits), faulted: faulted.sort() };
}

const OPS_2_TO_5 = ['op-00002', 'op-00003', 'op-00004', 'op-00005'];

describe.concurrent('op windows on each seam: exact hits', () => {
  it('edge over HTTP (status 503 before the server): the first attempt of ops 2..5, 4 hits, only those 4 ops failed an attempt', async () => {
    const r = await runWindowed(
      'edge-http',
      '{ kind: reference }',
      '{ seam: edge, kind: status, status: 503, when: before, fromOp: 2, toOp: 5, firstAttempts: 1 }',
    );
    expect(r.report.metrics.faultWindows[0].window).toMatchObject({ kind: 'ops', scope: 'per-request' });
    expect(r.hits).toEqual([4]);
    expect(r.faulted).toEqual(OPS_2_TO_5);
    expect(r.report.metrics.duplicateEffects).toBe(0);
  }, 90_000);

  it('edge over stdio (a malformed line instead of the answer): the first attempt of ops 2..5, 4 hits', async () => {
    const r = await runWindowed(
      'edge-stdio',
      '{ kind: reference-stdio }',
      '{ seam: edge, kind: stdio-malformed-line, mode: instead, fromOp: 2, toOp: 5, firstAttempts: 1 }',
    );
    expect(r.hits).toEqual([4]);
    expect(r.faulted).toEqual(OPS_2_TO_5);
  }, 90_000);

  it('dependency (payments refuses the connection): the first attempt of ops 2..5, 4 hits', async () => {
    const r = await runWindowed(
      'dependency',
      '{ kind: reference }',
      '{ seam: dependency, kind: network-error, dependency: payments, fromOp: 2, toOp: 5, firstAttempts: 1 }',
    );
    expect(r.hits).toEqual([4]);
    expect(r.faulted).toEqual(OPS_2_TO_5);
  }, 90_000);
});
