// The open model measures an op from its intended start: when the driver falls behind (here a handler that
// blocks the event loop), the ops that had to wait carry that wait in their latency (no coordinated omission).
import { describe, expect, it } from 'vitest';
import type { ClientPolicy, PolicySession } from '../../../src/client/policy.ts';
import { epochMs } from '../../../src/core/clock.ts';
import { RandomStream } from '../../../src/core/random.ts';
import { buildPlan } from '../../../src/plan/plan.ts';
import { parseProfile } from '../../../src/profile/load.ts';
import { Recorder } from '../../../src/run/recorder.ts';
import { toolTraits } from '../../../src/run/tool-traits.ts';
import { runWorkload } from '../../../src/run/workload-driver.ts';

const { profile } = parseProfile(
  'open.yaml',
  `name: open
description: 100 ops per second for 100 ms
seed: 1
duration: 100ms
target: { kind: reference }
workload:
  rate: 100
  mix:
    - tool: search_documents
      args: { query: invoice }
faults: []
expect: []
`,
);

describe('open-model workload driver', () => {
  it('records each op from its intended start, so a late dispatch shows as latency', async () => {
    const dispatched = new Map<string, number>();
    const policy = {
      name: 'none',
      forRun: () => async (planned: { opId: string; tool: string }) => {
        dispatched.set(planned.opId, epochMs());
        // The first op holds the event loop for 60 ms: ops 1 to 5 (due at 10..50 ms) start late.
        if (planned.opId === 'op-00000') {
          const until = epochMs() + 60;
          while (epochMs() < until) {}
        }
        return { tool: planned.tool, sideEffecting: false, outcome: 'ok' as const, attempts: 1, failedAttempts: 0 };
      },
    } as unknown as ClientPolicy;
    const recorder = new Recorder();
    const plan = buildPlan(profile, 1);
    const t0 = epochMs() + 20;
    await runWorkload(
      {
        profile,
        plan,
        policy,
        session: {} as PolicySession,
        recorder,
        traitsOf: toolTraits(profile),
        client: new RandomStream(1, 'client'),
      },
      t0,
      new AbortController().signal,
    );
    const ops = recorder.history([], []).ops!;
    expect(ops).toHaveLength(10);
    for (const op of ops) {
      const planned = plan.ops.at(Number(op.opId.slice(3)));
      expect(op.startMs, op.opId).toBe(t0 + planned.atMs!);
    }
    const op1 = ops.find((o) => o.opId === 'op-00001')!;
    // Due at 10 ms, dispatched after the 60 ms block: its latency holds the wait.
    expect(dispatched.get('op-00001')! - op1.startMs).toBeGreaterThanOrEqual(40);
    expect(op1.endMs - op1.startMs).toBeGreaterThanOrEqual(40);
  });
});
