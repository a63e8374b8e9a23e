// Issues the plan's ops through the client policy: open model (ops start on schedule whatever the latency) or
// closed model (N ops in flight, each next op the plan's next by index). Every op ends inside its deadline, so
// the drain is bounded. In the open model an op's latency counts from its intended start (t0 + atMs), not from
// when the driver got round to it: a late start (a busy event loop, a slow client) is queueing the op suffered,
// and measuring from the actual start would hide it (coordinated omission).

import type { ClientPolicy, OpRunner, PolicySession } from '../client/policy.ts';
import { epochMs } from '../core/clock.ts';
import type { RandomStream } from '../core/random.ts';
import { ownsOp, type Shard, workerShare } from '../core/shard.ts';
import { sleep } from '../core/sleep.ts';
import type { Plan } from '../plan/plan.ts';
import type { PlannedOp } from '../plan/schedule.ts';
import { listsOwnTools, type Profile } from '../profile/schema.ts';
import { effectArgsKey, type ToolTraits } from '../server/tools/catalog.ts';
import { targetKind } from '../under-test/kinds/index.ts';
import { opEffectKey } from './read-back.ts';
import type { Recorder } from './recorder.ts';

export interface WorkloadDeps {
  profile: Profile;
  plan: Plan;
  policy: Pick<ClientPolicy, 'forRun'>;
  session: PolicySession;
  recorder: Recorder;
  /** What the client knows of each tool (tool-traits.ts). */
  traitsOf: (tool: string) => ToolTraits;
  /** The client's stream: one child per op for backoff jitter. */
  client: RandomStream;
  onProgress?: (done: number) => void;
  /**
   * This run is one shard of a profile split by ops (core/shard.ts): it plans every op in order and runs only
   * the indices it owns (open model), or its share of the workers taking only owned indices (closed model).
   */
  opShard?: Shard;
  /** The op's wire id (run, shard, profile, op) when several shards drive one server. */
  traceIdOf?: (opId: string) => string;
  /** Told as each op is issued (the op waits for it) and as it ends: op windows follow the workload's progress. */
  progress?: OpProgress;
}

interface OpProgress {
  opIssued(index: number): Promise<void>;
  opEnded(index: number): void;
}

export async function runWorkload(deps: WorkloadDeps, t0: number, signal: AbortSignal): Promise<void> {
  const { profile, recorder } = deps;
  const { ops } = deps.plan;
  const runner = deps.policy.forRun({
    session: deps.session,
    client: profile.client,
    serverRefreshesCredentials: targetKind(profile.target.kind)?.offersCredentialRefresh === true,
    mistakes: profile.workload.mistakes,
    traitsOf: deps.traitsOf,
    recordAttempt: recorder.attempt,
    recordBreakerEvent: recorder.breakerEvent,
    ...(deps.traceIdOf && { traceIdOf: deps.traceIdOf }),
  });
  let done = 0;
  const runOp = async (planned: PlannedOp, intendedStartMs?: number) => {
    await deps.progress?.opIssued(planned.index);
    try {
      await executeOp(runner, deps, planned, intendedStartMs);
    } finally {
      deps.progress?.opEnded(planned.index);
    }
    deps.onProgress?.(++done);
  };
  if (ops.count !== undefined) {
    // Open model: the plan holds every op and its start.
    const inFlight: Promise<void>[] = [];
    for (let i = 0; i < ops.count && !signal.aborted; i++) {
      if (deps.opShard && !ownsOp(deps.opShard, i)) continue;
      const planned = ops.at(i);
      const intended = t0 + planned.atMs!;
      await sleep(intended - epochMs(), signal);
      if (signal.aborted) break;
      inFlight.push(runOp(planned, intended));
    }
    await settledOrStopped(Promise.all(inFlight), signal);
    return;
  }
  // Closed model: until the duration ends, or exactly `ops` ops however long they take. The next op is the plan's
  // next index this run owns (every index when it is not a shard).
  const stride = deps.opShard?.count ?? 1;
  let next = (deps.opShard?.index ?? 1) - 1;
  const end = t0 + profile.duration;
  const cap = profile.workload.ops;
  const more = () => (cap === undefined ? epochMs() < end : next < cap);
  const worker = async () => {
    while (!signal.aborted && more()) {
      const index = next;
      next += stride;
      await runOp(ops.at(index));
    }
  };
  const concurrency = profile.workload.concurrency!;
  const workers = deps.opShard ? workerShare(deps.opShard, concurrency) : concurrency;
  await settledOrStopped(Promise.all(Array.from({ length: workers }, worker)), signal);
}

/** How long ops in flight get to end once the run is stopped (Ctrl-C, SIGTERM); then the environment is torn down
 * under them, so a fault that holds a call (a hang, a long deadline) cannot hold up the interrupt. */
const STOP_GRACE_MS = 500;

/** Waits for `work`; once `signal` aborts, for at most STOP_GRACE_MS more. */
async function settledOrStopped(work: Promise<unknown>, signal: AbortSignal): Promise<void> {
  work.catch(() => undefined); // still awaited below; this only keeps a late failure from going unhandled
  let onAbort = () => {};
  const stopped = new Promise<void>((resolve) => {
    onAbort = () => setTimeout(resolve, STOP_GRACE_MS).unref();
  });
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  try {
    await Promise.race([work, stopped]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

async function executeOp(
  runOp: OpRunner,
  deps: WorkloadDeps,
  planned: PlannedOp,
  intendedStartMs?: number,
): Promise<void> {
  const startMs = intendedStartMs ?? epochMs();
  deps.recorder.opStarted(planned.opId);
  const fields = await runOp(planned, deps.client.child(planned.opId));
  // What the op's effect is recorded under when it carries no trace id (reconcile's fallback): the reference
  // tool's distinguishing arguments, or a foreign tool's unique argument value (`effects.keys`).
  const foreignKey = opEffectKey(deps.profile.effects, planned.tool, planned.args);
  const reference = !listsOwnTools(deps.profile.target);
  const argsKey = (reference ? effectArgsKey(planned.tool, planned.args) : undefined) ?? foreignKey;
  deps.recorder.op({
    opId: planned.opId,
    ...fields,
    ...(argsKey !== undefined && { argsKey }),
    startMs,
    endMs: epochMs(),
    ...(planned.mistake && { mistake: planned.mistake.kind }),
  });
}
