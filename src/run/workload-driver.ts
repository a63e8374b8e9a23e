// Issues the workload's logical calls through the client policy: open model (ops start on schedule whatever
// the latency) or closed model (N ops in flight). Every op ends inside its deadline, so the drain is bounded.

import { Breakers } from '../client/breakers.ts';
import { ServerCredentialRefresh } from '../client/credentials.ts';
import type { ClientPolicy, PolicyContext } from '../client/policy.ts';
import type { Session } from '../client/session.ts';
import { epochMs } from '../core/clock.ts';
import type { RandomStream } from '../core/random.ts';
import { sleep } from '../core/sleep.ts';
import { injectMistake } from '../model/mistakes.ts';
import { executeWithCorrections } from '../model/self-correct.ts';
import { openModelOpCount, type PlannedOp, planOp } from '../plan/schedule.ts';
import type { Profile } from '../profile/schema.ts';
import { traitsOf } from '../server/tools/catalog.ts';
import type { Recorder } from './recorder.ts';

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

/** What the run's ops share on the client side: breakers, the credential hook, the tool list. */
interface Shared {
  breakers?: Breakers;
  credentials?: ServerCredentialRefresh;
  listTools(): Promise<string[]>;
}

function shared(deps: WorkloadDeps): Shared {
  const { client, target } = deps.profile;
  const resilient = deps.policy.name === 'resilient';
  let tools: Promise<string[]> | undefined;
  return {
    breakers: resilient && client.breaker ? new Breakers(client.breaker, deps.recorder.breakerEvent) : undefined,
    // Only the reference server offers a refresh; the controls never refresh (that is what they control for).
    credentials:
      resilient && client.credentialRefresh && target.kind === 'reference'
        ? new ServerCredentialRefresh(deps.session, client.attemptTimeoutMs)
        : undefined,
    listTools: () => {
      tools ??= deps.session
        .get()
        .then(({ connection }) => connection.client.listTools())
        .then((r) => r.tools.map((t) => t.name));
      tools.catch(() => {
        tools = undefined;
      });
      return tools;
    },
  };
}

export async function runWorkload(deps: WorkloadDeps, t0: number, signal: AbortSignal): Promise<void> {
  const { profile } = deps;
  let done = 0;
  const common = shared(deps);
  const runOp = async (planned: PlannedOp) => {
    await executeOp(deps, planned, common);
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

async function executeOp(deps: WorkloadDeps, planned: PlannedOp, common: Shared): Promise<void> {
  const { profile } = deps;
  const mistakes = profile.workload.mistakes;
  const random = deps.plan.child(`mistake/${planned.opId}`);
  const mistaken =
    mistakes && random.chance('mistake', mistakes.share)
      ? injectMistake(planned.tool, planned.args, mistakes.kinds, random)
      : undefined;
  const tool = mistaken?.tool ?? planned.tool;
  const args = mistaken?.args ?? planned.args;
  const ctx: PolicyContext = {
    session: deps.session,
    random: deps.client.child(planned.opId),
    timeouts: { attemptTimeoutMs: profile.client.attemptTimeoutMs, deadlineMs: profile.client.deadlineMs },
    maxAttempts: profile.client.maxAttempts,
    backoff: profile.client.backoff,
    recordAttempt: deps.recorder.attempt,
    breaker: common.breakers?.get(planned.tool),
    credentials: common.credentials,
  };
  const startMs = epochMs();
  const call = { opId: planned.opId, tool, args, ...traitsOf(tool) };
  // The resilient client lets the model correct a rejected call; the controls report the first failure.
  const run =
    deps.policy.name === 'resilient' && mistakes
      ? await executeWithCorrections(deps.policy, call, ctx, {
          maxCorrections: mistakes.maxCorrections,
          traitsOf,
          listTools: common.listTools,
        })
      : { result: await deps.policy.execute(call, ctx), tool, sideEffecting: call.sideEffecting };
  const result = run.result;
  deps.recorder.op({
    opId: planned.opId,
    tool: run.tool,
    sideEffecting: run.sideEffecting,
    startMs,
    endMs: epochMs(),
    outcome: result.outcome,
    attempts: result.attempts,
    failedAttempts: result.failedAttempts,
    category: result.category,
    errorCode: result.errorCode,
    lookups: result.lookups,
    visible: result.visible,
    ...(result.lookupsFound && { lookupsFound: result.lookupsFound }),
    ...(result.authRefreshes && { authRefreshes: result.authRefreshes }),
    ...(result.circuitOpen && { circuitOpen: true }),
    ...(mistaken && { mistake: mistaken.kind }),
    ...('corrections' in run && run.corrections > 0 && { corrections: run.corrections }),
    ...('loopGuardStop' in run && run.loopGuardStop && { loopGuardStop: true }),
  });
}
