// Runs one profile end to end: environment up, faults on their timeline while the workload runs, drain (wait
// until the server is quiet), read the ledger, measure, judge. The environment is torn down whatever happens.

import { CANARY_MARKERS } from '../../mocks/canaries.ts';
import { type PolicyName, policyByName } from '../client/policies/index.ts';
import { epochMs } from '../core/clock.ts';
import { DecisionLog } from '../core/decision-log.ts';
import type { History } from '../core/history.ts';
import type { DecisionSink } from '../core/random.ts';
import type { ProfileReport } from '../measure/run-report.ts';
import { buildProfileReport } from '../measure/verdict.ts';
import type { NetworkBackend } from '../network/backend.ts';
import { buildTimeline } from '../plan/timeline.ts';
import type { LoadedProfile } from '../profile/load.ts';
import { drain } from './drain.ts';
import { startEnvironment } from './environment.ts';
import { negotiationNotes } from './negotiation-notes.ts';
import { Recorder } from './recorder.ts';
import { TimelineDriver } from './timeline-driver.ts';
import { transportNotes } from './transport-notes.ts';
import { runWorkload } from './workload-driver.ts';

/** Starts the network backend for one profile, with that profile's seed and decision log. */
export type NetworkFactory = (seed: number, onDecision: DecisionSink) => Promise<NetworkBackend>;

export interface RunOptions {
  network: NetworkFactory;
  seed?: number;
  policy?: PolicyName;
  signal: AbortSignal;
  onProgress?: (opsDone: number) => void;
  /** A url target may be outside loopback (--allow-non-loopback). */
  allowNonLoopback?: boolean;
}

export interface ProfileResult {
  report: ProfileReport;
  history: History;
}

/** Start the workload a moment after everything is connected, so the first op does not pay for set-up. */
const LEAD_IN_MS = 50;

export async function runProfile(loaded: LoadedProfile, options: RunOptions): Promise<ProfileResult> {
  const { profile } = loaded;
  const seed = options.seed ?? profile.seed;
  const policyName = options.policy ?? profile.client.policy;
  const log = new DecisionLog(seed);
  const backend = await options.network(seed, log.sink);
  const env = await startEnvironment(profile, seed, backend, { allowNonLoopback: options.allowNonLoopback }).catch(
    async (error) => {
      await backend.close();
      throw error;
    },
  );
  env.session.resultBudgetBytes = profile.client.resultBudgetBytes;
  const recorder = new Recorder();
  const driver = new TimelineDriver(profile.faults, env, recorder, log);
  try {
    await env.session.get();
    const t0 = epochMs() + LEAD_IN_MS;
    await Promise.all([
      driver.run(buildTimeline(profile.faults, profile.duration), t0, options.signal),
      runWorkload(
        {
          profile,
          policy: policyByName(policyName),
          session: env.session,
          recorder,
          plan: log.stream('workload'),
          client: log.stream('client'),
          onProgress: options.onProgress,
        },
        t0,
        options.signal,
      ),
    ]);
    await driver.clear();
    const drained = await drain(env.server, profile.drain, options.signal);
    log.append(await env.server.decisions());
    const history = recorder.history(await env.server.ledger(), log.records);
    if (env.transportEvents.length > 0) history.transportEvents = [...env.transportEvents];
    const exprs =
      policyName !== profile.client.policy && profile.controls[policyName]
        ? profile.controls[policyName]!
        : profile.expect;
    const report = buildProfileReport({
      name: profile.name,
      description: profile.description,
      file: loaded.file,
      profileSha256: loaded.sha256,
      seed,
      policy: policyName,
      history,
      expect: exprs,
      decisionLogSha256: log.sha256(),
      drainMs: drained.drainMs,
      unsettled: drained.unsettled,
      metricsOptions: {
        recovery: {
          windowMs: profile.steadyState.windowMs,
          minOps: profile.steadyState.minOps,
          targetSuccessRate: profile.steadyState.level,
        },
        canaries: CANARY_MARKERS,
      },
      notes: [
        ...loaded.warnings,
        ...(env.session.renewals > 0 ? [`the client re-initialized its session ${env.session.renewals} time(s)`] : []),
        ...negotiationNotes(env.session.negotiations),
        ...transportNotes(env.transportEvents),
        ...env.notes(),
        ...(drained.observable ? [] : ['the target cannot say when it is quiet: the ledger was read without a drain']),
      ],
    });
    return { report, history };
  } finally {
    await driver.clear().catch(() => {});
    await env.close();
    await backend.close();
  }
}
