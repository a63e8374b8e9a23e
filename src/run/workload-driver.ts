// Issues the plan's ops through the client policy: open model (ops start on schedule whatever the latency) or
// closed model (N ops in flight, each next op the plan's next by index). Every op ends inside its deadline, so
// the drain is bounded.

import type { ClientPolicy, OpRunner, PolicySession } from '../client/policy.ts';
import { epochMs } from '../core/clock.ts';
import type { RandomStream } from '../core/random.ts';
import { sleep } from '../core/sleep.ts';
import type { Plan } from '../plan/plan.ts';
import type { PlannedOp } from '../plan/schedule.ts';
import type { Profile } from '../profile/schema.ts';
import { effectArgsKey, type ToolTraits } from '../server/tools/catalog.ts';
import { opEffectKey } from './read-back.ts';
import type { Recorder } from './recorder.ts';

export interface WorkloadDeps {
  profile: Profile;
  plan: Plan;
  policy: ClientPolicy;
  session: PolicySession;
  recorder: Recorder;
  /** What the client knows of each tool (tool-traits.ts). */
  traitsOf: (tool: string) => ToolTraits;
  /** The client's stream: one child per op for backoff jitter. */
  client: RandomStream;
  onProgress?: (done: number) => void;
}

export async function runWorkload(deps: WorkloadDeps, t0: number, signal: AbortSignal): Promise<void> {
  const { profile, recorder } = deps;
  const { ops } = deps.plan;
  const runner = deps.policy.forRun({
    session: deps.session,
    client: profile.client,
    target: profile.target,
    mistakes: profile.workload.mistakes,
    traitsOf: deps.traitsOf,
    recordAttempt: recorder.attempt,
    recordBreakerEvent: recorder.breakerEvent,
  });
  let done = 0;
  const runOp = async (planned: PlannedOp) => {
    await executeOp(runner, deps, planned);
    deps.onProgress?.(++done);
  };
  if (ops.count !== undefined) {
    // Open model: the plan holds every op and its start.
    const inFlight: Promise<void>[] = [];
    for (let i = 0; i < ops.count && !signal.aborted; i++) {
      const planned = ops.at(i);
      await sleep(t0 + planned.atMs! - epochMs(), signal);
      if (signal.aborted) break;
      inFlight.push(runOp(planned));
    }
    await Promise.all(inFlight);
    return;
  }
  let next = 0;
  const end = t0 + profile.duration;
  const worker = async () => {
    while (!signal.aborted && epochMs() < end) await runOp(ops.at(next++));
  };
  await Promise.all(Array.from({ length: profile.workload.concurrency! }, worker));
}

async function executeOp(runOp: OpRunner, deps: WorkloadDeps, planned: PlannedOp): Promise<void> {
  const startMs = epochMs();
  const fields = await runOp(planned, deps.client.child(planned.opId));
  // What the op's effect is recorded under when it carries no trace id (reconcile's fallback): the reference
  // tool's distinguishing arguments, or a foreign tool's unique argument value (`effects.keys`).
  const foreignKey = opEffectKey(deps.profile.effects, planned.tool, planned.args);
  const argsKey = effectArgsKey(planned.tool, planned.args) ?? foreignKey;
  deps.recorder.op({
    opId: planned.opId,
    ...fields,
    ...(argsKey !== undefined && { argsKey }),
    startMs,
    endMs: epochMs(),
    ...(planned.mistake && { mistake: planned.mistake.kind }),
  });
}
