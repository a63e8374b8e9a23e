// Runs one profile end to end: environment up, faults on their timeline while the workload runs, drain (wait
// until the server is quiet), read the ledger, measure, judge. The environment is torn down whatever happens.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CANARY_MARKERS } from '../../mocks/canaries.ts';
import { type PolicyName, policyByName } from '../client/policies/index.ts';
import { epochMs } from '../core/clock.ts';
import { DecisionLog } from '../core/decision-log.ts';
import type { History } from '../core/history.ts';
import type { DecisionSink } from '../core/random.ts';
import type { ProfileReport } from '../measure/run-report.ts';
import { buildProfileReport } from '../measure/verdict.ts';
import type { NetworkBackend } from '../network/backend.ts';
import { buildPlan } from '../plan/plan.ts';
import type { LoadedProfile } from '../profile/load.ts';
import { isReferenceKind } from '../profile/schema.ts';
import { drain } from './drain.ts';
import { startEnvironment } from './environment.ts';
import { runHooks } from './hooks.ts';
import { negotiationNotes } from './negotiation-notes.ts';
import { preflight } from './preflight.ts';
import { Recorder } from './recorder.ts';
import { TimelineDriver } from './timeline-driver.ts';
import { toolTraits, traitNotes } from './tool-traits.ts';
import { transportNotes } from './transport-notes.ts';
import { runWorkload } from './workload-driver.ts';

/** Starts the network backend for one profile, with that profile's seed and decision log. */
export type NetworkFactory = (seed: number, onDecision: DecisionSink) => Promise<NetworkBackend>;

export interface RunOptions {
  network: NetworkFactory;
  seed?: number;
  policy?: PolicyName;
  signal: AbortSignal;
  /** An op ended: how many have, and how many of them did not end ok. */
  onProgress?: (opsDone: number, opsFailed: number) => void;
  /** The profile's phase changed (for a progress display). */
  onPhase?: (phase: ProfilePhase) => void;
  /** A url target may be outside loopback (--allow-non-loopback). */
  allowNonLoopback?: boolean;
}

export type ProfilePhase = 'set-up' | 'workload' | 'drain' | 'measure';

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
  const plan = buildPlan(profile, seed, log.sink);
  options.onPhase?.('set-up');
  // The profile run's own temporary directory (`${tmpdir}` in a foreign target and in hooks), removed afterwards.
  const workdir = mkdtempSync(join(tmpdir(), `faultline-${profile.name}-`));
  const removeWorkdir = () => rmSync(workdir, { recursive: true, force: true });
  const placeholders = { tmpdir: workdir, env: process.env };
  const backend = await runHooks('setup', profile.setup, placeholders)
    .then(() => options.network(seed, log.sink))
    .catch((error) => {
      removeWorkdir();
      throw error;
    });
  const env = await startEnvironment(profile, seed, backend, {
    allowNonLoopback: options.allowNonLoopback,
    placeholders,
    profileFile: loaded.file,
  }).catch(async (error) => {
    await backend.close();
    removeWorkdir();
    throw error;
  });
  const recorder = new Recorder();
  const driver = new TimelineDriver(profile.faults, env, recorder, log);
  let scanned = 0;
  let failed = 0;
  const failedSoFar = () => {
    for (; scanned < recorder.ops.length; scanned++) if (recorder.ops[scanned].outcome !== 'ok') failed++;
    return failed;
  };
  try {
    await env.session.get();
    // A server we did not write: its tools/list decides which workload tools exist and what they do.
    const listed = isReferenceKind(profile.target.kind) ? undefined : await preflight(loaded, env.session);
    await runHooks('reset', profile.reset, placeholders, env.session);
    const t0 = epochMs() + LEAD_IN_MS;
    options.onPhase?.('workload');
    await Promise.all([
      driver.run(plan.timeline, t0, options.signal),
      runWorkload(
        {
          profile,
          plan,
          policy: policyByName(policyName),
          session: env.session,
          recorder,
          traitsOf: toolTraits(profile, listed),
          client: log.stream('client'),
          onProgress: options.onProgress && ((done) => options.onProgress?.(done, failedSoFar())),
        },
        t0,
        options.signal,
      ),
    ]);
    options.onPhase?.('drain');
    await driver.clear();
    const drained = await drain(env.server, profile.drain, options.signal);
    log.append(await env.server.decisions());
    const history = recorder.history(await env.server.ledger(), log.records);
    // A target that cannot show its effects gets n/a effect metrics, never a silent 0.
    if (!env.server.observesEffects) history.effectsObservable = false;
    if (env.transportEvents.length > 0) history.transportEvents = [...env.transportEvents];
    options.onPhase?.('measure');
    const control = policyName !== profile.client.policy && profile.controls[policyName] !== undefined;
    const exprs = control ? profile.controls[policyName]! : profile.expect;
    const built = buildProfileReport({
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
        ...(listed ? traitNotes(profile, listed) : []),
        ...(drained.observable ? [] : ['the target cannot say when it is quiet: the ledger was read without a drain']),
      ],
    });
    const report = { ...built, workloadOffsetMs: Math.round(t0 - history.startMs), ...(control && { control }) };
    return { report, history };
  } finally {
    await driver.clear().catch(() => {});
    await env.close();
    await backend.close();
    removeWorkdir();
  }
}
