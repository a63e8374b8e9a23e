// Issues the workload's logical calls through the client policy: open model (ops start on schedule whatever
// the latency) or closed model (N ops in flight). Every op ends inside its deadline, so the drain is bounded.
import type { ClientPolicy, PolicyContext } from '../client/call.ts';
import type { Session } from '../client/session.ts';
import { epochMs } from '../core/clock.ts';
import type { RandomStream } from '../plan/random.ts';
import { openModelOpCount, type PlannedOp, planOp } from '../plan/schedule.ts';
import type { Profile } from '../profile/schema.ts';
import { traitsOf } from './catalog.ts';
import type { Recorder } from './recorder.ts';
import { sleep } from './sleep.ts';

export interface WorkloadDeps {
  profile: Profile;
  policy: ClientPolicy;
  session: Session;
  recorder: Recorder;
  /** The workload's stream: tool picks and arguments. */
  plan: RandomStream;
  /** The client's stream: one child per op for backoff jitter. */
  client: RandomStream;
  onProgress?: (done: number) => void;
}

export async function runWorkload(deps: WorkloadDeps, t0: number, signal: AbortSignal): Promise<void> {
  const { profile } = deps;
  let done = 0;
  const runOp = async (planned: PlannedOp) => {
    await executeOp(deps, planned);
    deps.onProgress?.(++done);
  };
  if (profile.workload.rate) {
    const inFlight: Promise<void>[] = [];
    const count = openModelOpCount(profile);
    for (let i = 0; i < count && !signal.aborted; i++) {
      const planned = planOp(profile, deps.plan, i);
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
    while (!signal.aborted && epochMs() < end) await runOp(planOp(profile, deps.plan, next++));
  };
  await Promise.all(Array.from({ length: profile.workload.concurrency! }, worker));
}

async function executeOp(deps: WorkloadDeps, planned: PlannedOp): Promise<void> {
  const { profile } = deps;
  const ctx: PolicyContext = {
    session: deps.session,
    random: deps.client.child(planned.opId),
    timeouts: { attemptTimeoutMs: profile.client.attemptTimeoutMs, deadlineMs: profile.client.deadlineMs },
    maxAttempts: profile.client.maxAttempts,
    backoff: profile.client.backoff,
    recordAttempt: deps.recorder.attempt,
  };
  const traits = traitsOf(planned.tool);
  const startMs = epochMs();
  const result = await deps.policy.execute(
    { opId: planned.opId, tool: planned.tool, args: planned.args, ...traits },
    ctx,
  );
  deps.recorder.op({
    opId: planned.opId,
    tool: planned.tool,
    sideEffecting: traits.sideEffecting,
    startMs,
    endMs: epochMs(),
    outcome: result.outcome,
    attempts: result.attempts,
    failedAttempts: result.failedAttempts,
    category: result.category,
    errorCode: result.errorCode,
    lookups: result.lookups,
    visible: result.visible,
  });
}
