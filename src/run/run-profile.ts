// Runs one profile end to end: environment up, faults on their timeline while the workload runs, drain (wait
// until the server is quiet), read the ledger, measure, judge. The environment is torn down whatever happens.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { clientTransport } from '../client/connection.ts';
import { modulePolicy } from '../client/module-client.ts';
import { type PolicyName, policyByName } from '../client/policies/index.ts';
import type { ClientPolicy } from '../client/policy.ts';
import { epochMs } from '../core/clock.ts';
import { DecisionLog } from '../core/decision-log.ts';
import { collectBetweenPasses } from '../core/heap-keeper.ts';
import type { History } from '../core/history.ts';
import { LineSpill } from '../core/line-spill.ts';
import { LoopLagWatch } from '../core/loop-lag.ts';
import type { Pairing } from '../core/pairing.ts';
import type { DecisionSink } from '../core/random.ts';
import { RecordSpill } from '../core/record-spill.ts';
import { ownsOp, type Shard } from '../core/shard.ts';
import { withRunLoad } from '../measure/calibration.ts';
import type { ProfileReport } from '../measure/run-report.ts';
import type { Metrics } from '../measure/types.ts';
import { buildProfileReport } from '../measure/verdict.ts';
import type { NetworkBackend } from '../network/backend.ts';
import { buildPlan } from '../plan/plan.ts';
import type { LoadedProfile } from '../profile/load.ts';
import { listsOwnTools } from '../profile/schema.ts';
import { calibrateFor } from './calibrate.ts';
import { loadClientModule } from './client-module.ts';
import { drain } from './drain.ts';
import { opKeyValuesOf } from './effect-sources.ts';
import { startEnvironment } from './environment.ts';
import { runHooks } from './hooks.ts';
import { metricsOptionsFor } from './judging.ts';
import { negotiationNotes } from './negotiation-notes.ts';
import { preflight } from './preflight.ts';
import { DuringSampler, duringNote } from './read-back-during.ts';
import { Recorder } from './recorder.ts';
import { TimelineDriver } from './timeline-driver.ts';
import { toolTraits, traitNotes } from './tool-traits.ts';
import { ownEffects, type RunScope, type ShardScope, sharesServer, traceKey } from './trace-key.ts';
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
  /** Run only this shard's ops of the profile (a profile split by ops, `--shard i/n` with one profile). */
  opShard?: Shard;
  /**
   * A sharded run (`--shard`, `--run-id`): on a target every shard shares (url, http), trace ids and idempotency
   * keys carry run, shard and profile, the server is not reset, and only this shard's effects are read back.
   */
  runScope?: ShardScope;
  /** Replaces the policy's connect settings (a control with the client's discovery guard off). */
  connection?: ClientPolicy['connection'];
  /** The protocol pairing: client SDK and server front end (default legacy: SDK 1.32 on both sides). */
  pairing?: Pairing;
  /** Your own client (--client-module, an absolute path): replaces the profile's client.module and policy. */
  clientModule?: string;
  /**
   * Keep the op and attempt records slim in memory and whole on disk (core/record-spill.ts), as `faultline run`
   * does; the history's records then read whole through `whole()`. Off: every record whole in memory.
   */
  spillHistory?: boolean;
  /**
   * The faults-off control's metrics, for relative thresholds (`x control`), or 'self' when this run has no faults
   * and is its own control.
   */
  control?: Metrics | 'self';
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
  // A spilling run writes its decisions to disk as they are drawn too (core/decision-log.ts).
  const log = new DecisionLog(seed, options.spillHistory ? new LineSpill('decisions') : undefined);
  const plan = buildPlan(profile, seed, log.sink);
  const scope: RunScope | undefined =
    options.runScope && sharesServer(profile.target.kind)
      ? { ...options.runScope, profile: scopedName(profile.name, options.pairing) }
      : undefined;
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
  const recorder = new Recorder(options.spillHistory ? new RecordSpill() : undefined);
  const env = await startEnvironment(profile, seed, backend, {
    opKeyValues: () => opKeyValuesOf(profile, plan, recorder),
    allowNonLoopback: options.allowNonLoopback,
    placeholders,
    opShard: options.opShard,
    keysScoped: scope !== undefined,
    pairing: options.pairing,
    profileFile: loaded.file,
    signal: options.signal,
    reprobeBareFallback: (options.connection ?? policyByName(policyName).connection)?.reprobeBareFallback,
  }).catch(async (error) => {
    await backend.close();
    removeWorkdir();
    throw error;
  });
  // Your own client, unless a policy was asked for by name (a negative control): the profile's module or the flag's.
  const moduleFile =
    options.clientModule ??
    (profile.client.module && options.policy === undefined
      ? resolve(dirname(loaded.file), profile.client.module)
      : undefined);
  const userClient = moduleFile
    ? await loadClientModule(moduleFile).then(
        (factory) => modulePolicy(factory, () => clientTransport(env.session.options)),
        async (error) => {
          await env.close();
          await backend.close();
          removeWorkdir();
          throw error;
        },
      )
    : undefined;
  const owns = options.opShard ? (i: number) => ownsOp(options.opShard!, i) : undefined;
  const driver = new TimelineDriver(profile.faults, env, recorder, log, plan.opWindows, owns);
  let scanned = 0;
  let failed = 0;
  const failedSoFar = () => {
    for (; scanned < recorder.ops.length; scanned++) if (recorder.ops[scanned].outcome !== 'ok') failed++;
    return failed;
  };
  let sampler: DuringSampler | undefined;
  let harnessLag: LoopLagWatch | undefined;
  try {
    // Stopped while the environment came up: straight to the tear-down (the suite reports it interrupted).
    if (options.signal.aborted) throw new Error('the run was stopped during set-up');
    await env.connect();
    // A server we did not write: its tools/list decides which workload tools exist and what they do.
    const listed = listsOwnTools(profile.target) ? await preflight(loaded, env.session) : undefined;
    await runHooks('reset', profile.reset, placeholders, env.session);
    const calibration = await calibrateFor(profile, env.session, options.signal, options.opShard, {
      traitsOf: toolTraits(profile, listed),
      seed,
    });
    // Load that rises after the calibration: both event loops watched from here to the workload's end.
    await env.server.loopLag();
    harnessLag = new LoopLagWatch();
    const t0 = epochMs() + LEAD_IN_MS;
    const everyMs = env.readBack?.duringEveryMs;
    sampler = env.readBack && everyMs !== undefined ? new DuringSampler(env.readBack, everyMs) : undefined;
    options.onPhase?.('workload');
    let faultsAtZeroInPlace!: () => void;
    const workloadMayStart = new Promise<void>((resolve) => {
      faultsAtZeroInPlace = resolve;
    });
    await Promise.all([
      driver.run(plan.timeline, t0, options.signal, faultsAtZeroInPlace),
      workloadMayStart.then(() => {
        sampler?.start();
        return runWorkload(
          {
            profile,
            plan,
            policy: userClient ?? policyByName(policyName),
            session: env.session,
            recorder,
            traitsOf: toolTraits(profile, listed),
            client: log.stream('client'),
            opShard: options.opShard,
            progress: driver,
            ...(scope && { traceIdOf: (opId: string) => traceKey(scope, opId) }),
            onProgress: options.onProgress && ((done) => options.onProgress?.(done, failedSoFar())),
          },
          t0,
          options.signal,
        );
      }),
    ]);
    const runLoad = { harness: harnessLag.stop(), server: await env.server.loopLag() };
    await sampler?.finish();
    options.onPhase?.('drain');
    await driver.clear();
    const drained = await drain(env.server, profile.drain, options.signal);
    log.append(await env.server.decisions());
    const ledger = await env.server.ledger();
    // A spilling run keeps its decisions on disk, read back through the log; the library's callers get an array.
    const decisions = options.spillHistory ? log : log.records;
    const history = recorder.history(scope ? ownEffects(ledger, scope) : ledger, decisions);
    // A target that cannot show its effects gets n/a effect metrics, never a silent 0.
    if (!env.server.observesEffects) {
      history.effectsObservable = false;
      const why = env.effectsUnknown?.();
      if (why !== undefined) history.effectsUnknown = why;
    }
    const during = sampler?.summary(history, t0);
    if (env.transportEvents.length > 0) history.transportEvents = [...env.transportEvents];
    const discovery = env.session.discoveries();
    if (discovery.length > 0) history.discovery = discovery;
    // The reference server's front end is the pairing's; what a foreign server speaks is not known.
    if (profile.target.kind === 'reference')
      history.serverSpeaksModern = (options.pairing?.server ?? 'sdk1') !== 'sdk1';
    options.onPhase?.('measure');
    collectBetweenPasses();
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
      interrupted: options.signal.aborted,
      calibration: withRunLoad(calibration, runLoad, profile.client.attemptTimeoutMs),
      metricsOptions: metricsOptionsFor(profile),
      ...(options.control && { control: options.control }),
      notes: [
        ...loaded.warnings,
        ...(env.session.renewals > 0 ? [`the client re-initialized its session ${env.session.renewals} time(s)`] : []),
        ...negotiationNotes(env.session.negotiations),
        ...transportNotes(env.transportEvents),
        ...env.notes(),
        ...(scope ? [scopeNote(scope)] : []),
        ...(listed ? traitNotes(profile, listed) : []),
        ...(during ? [duringNote(during)] : []),
        ...(moduleFile ? [`client: your module ${moduleFile} (its own retries; attempts observed on the wire)`] : []),
        ...(drained.observable ? [] : ['the target cannot say when it is quiet: the ledger was read without a drain']),
      ],
    });
    const report = {
      ...built,
      workloadOffsetMs: Math.round(t0 - history.startMs),
      ...(control && { control }),
      ...(during && { readBackDuring: during }),
    };
    return { report, history };
  } finally {
    harnessLag?.stop();
    await driver.clear().catch(() => {});
    await sampler?.finish();
    await userClient?.close();
    await env.close();
    await backend.close();
    removeWorkdir();
  }
}

/** What a scoped run did differently on the shared server. */
function scopeNote(scope: RunScope): string {
  const prefix = traceKey(scope, '');
  return `shared server: trace ids and idempotency keys scoped as ${prefix}<op id> (run ${scope.runId}, shard ${scope.shard.index}/${scope.shard.count}); the server was not reset and only effects under this prefix were counted`;
}

/** The profile's part of the scope: a pairing other than legacy is a run of its own on the server (`name.pairing`). */
function scopedName(name: string, pairing: Pairing | undefined): string {
  return pairing && pairing.name !== 'legacy' ? `${name}.${pairing.name}` : name;
}
