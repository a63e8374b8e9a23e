// Runs one profile end to end, in named stages: prepare, bring up the environment, get ready (connect, calibrate),
// drive the workload with the faults on their timeline, collect (drain until the server is quiet, read the ledger),
// judge. Everything brought up is torn down whatever happens (teardown.ts).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { clientTransport } from '../client/connection.ts';
import type { Listener } from '../client/listener.ts';
import { modulePolicy } from '../client/module-client.ts';
import { type PolicyName, policyByName } from '../client/policies/index.ts';
import type { ClientPolicy } from '../client/policy.ts';
import { epochMs } from '../core/clock.ts';
import { DecisionLog } from '../core/decision-log.ts';
import type { History } from '../core/history.ts';
import { LineSpill } from '../core/line-spill.ts';
import { LoopLagWatch } from '../core/loop-lag.ts';
import type { Pairing } from '../core/pairing.ts';
import type { DecisionSink } from '../core/random.ts';
import { ownsOp, type Shard } from '../core/shard.ts';
import { needsLinkProxy } from '../faults/kind.ts';
import { withRunLoad } from '../measure/calibration.ts';
import type { ProfileReport } from '../measure/run-report.ts';
import type { ControlRun } from '../measure/shard-format.ts';
import type { Metrics } from '../measure/types.ts';
import { buildProfileReport } from '../measure/verdict.ts';
import type { NetworkBackend } from '../network/backend.ts';
import { buildPlan, type Plan } from '../plan/plan.ts';
import type { LoadedProfile } from '../profile/load.ts';
import { listsOwnTools, type Profile } from '../profile/schema.ts';
import type { PlaceholderValues } from '../targets/placeholders.ts';
import { targetKind } from '../under-test/kinds/index.ts';
import { calibrateFor } from './calibrate.ts';
import { loadClientModule } from './client-module.ts';
import { type DrainResult, drain } from './drain.ts';
import { opKeyValuesOf } from './effect-sources.ts';
import { type Environment, startEnvironment } from './environment.ts';
import { runHooks } from './hooks.ts';
import { metricsOptionsFor } from './judging.ts';
import { listenerFor } from './listen.ts';
import { negotiationNotes } from './negotiation-notes.ts';
import { type ListedTool, preflight } from './preflight.ts';
import { DuringSampler, duringNote } from './read-back-during.ts';
import { Recorder } from './recorder.ts';
import { type RunParts, withTeardown } from './teardown.ts';
import { TimelineDriver } from './timeline-driver.ts';
import { toolTraits, traitNotes } from './tool-traits.ts';
import { ownEffects, type RunScope, type ShardScope, sharesServer, traceKey } from './trace-key.ts';
import { transportNotes } from './transport-notes.ts';
import { runWorkload, type WorkloadDeps } from './workload-driver.ts';

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
   * The history's records whole on disk only (`history.records`), its arrays slim (run/recorder.ts), as `faultline
   * run` does. Off: every record whole in the arrays.
   */
  spillHistory?: boolean;
  /**
   * The faults-off control's metrics, for relative thresholds (`x control`), or 'self' when this run has no faults
   * and is its own control.
   */
  control?: Metrics | 'self';
  /**
   * The faults-off control's machine delay (measure/calibration.ts), ms: how much load may have added to its times,
   * and so to a relative lower bound (a missed one within factor x this is inconclusive).
   */
  controlDelayMs?: number;
}

export type ProfilePhase = 'set-up' | 'workload' | 'drain' | 'measure';

export interface ProfileResult {
  report: ProfileReport;
  history: History;
  /** The faults-off control the report's relative thresholds were bound by (run/faults-off.ts). */
  control?: ControlRun;
}

/**
 * Start the workload a moment after everything is connected, so the first op does not pay for set-up: the faults at
 * 0 go in place in it (a Toxiproxy or control request of a few ms; the first op waits for them if they take longer).
 */
const LEAD_IN_MS = 20;

export async function runProfile(loaded: LoadedProfile, options: RunOptions): Promise<ProfileResult> {
  return withTeardown(async (parts) => {
    const run = await bringUp(prepare(loaded, options, parts), parts);
    const ready = await getReady(run);
    const driven = await driveWorkload(run, ready, parts);
    const collected = await collect(run, driven);
    return judge(run, ready, driven, collected);
  });
}

/** What the run settles before anything starts: seed, policy, plan, scope, its temporary directory. */
interface Prepared {
  loaded: LoadedProfile;
  profile: Profile;
  options: RunOptions;
  seed: number;
  policyName: PolicyName;
  log: DecisionLog;
  plan: Plan;
  scope: RunScope | undefined;
  placeholders: PlaceholderValues;
}

/** Prepared, with the environment up. */
interface Up extends Prepared {
  recorder: Recorder;
  env: Environment;
  moduleFile: string | undefined;
  userClient: ReturnType<typeof modulePolicy> | undefined;
  driver: TimelineDriver;
}

/** Connected and calibrated. */
interface Ready {
  listed: Map<string, ListedTool> | undefined;
  calibration: Awaited<ReturnType<typeof calibrateFor>>;
}

interface Driven {
  t0: number;
  listener: Listener | undefined;
  runLoad: Parameters<typeof withRunLoad>[1];
  sampler: DuringSampler | undefined;
}

interface Collected {
  history: History;
  drained: DrainResult;
  during: ReturnType<DuringSampler['summary']> | undefined;
}

function prepare(loaded: LoadedProfile, options: RunOptions, parts: RunParts): Prepared {
  const { profile } = loaded;
  const seed = options.seed ?? profile.seed;
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
  parts.removeWorkdir = () => rmSync(workdir, { recursive: true, force: true });
  const policyName = options.policy ?? profile.client.policy;
  return {
    loaded,
    profile,
    options,
    seed,
    policyName,
    log,
    plan,
    scope,
    placeholders: { tmpdir: workdir, env: process.env },
  };
}

/** Set-up hooks, the network backend, the environment, your client module and the fault timeline's driver. */
async function bringUp(prepared: Prepared, parts: RunParts): Promise<Up> {
  const { profile, options, seed, plan, log } = prepared;
  await runHooks('setup', profile.setup, prepared.placeholders);
  const backend = await options.network(seed, log.sink);
  parts.backend = backend;
  const recorder = new Recorder({ spill: options.spillHistory, metrics: metricsOptionsFor(profile) });
  const env = await startEnvironment(profile, seed, backend, {
    opKeyValues: () => opKeyValuesOf(profile, plan, recorder),
    allowNonLoopback: options.allowNonLoopback,
    placeholders: prepared.placeholders,
    opShard: options.opShard,
    keysScoped: prepared.scope !== undefined,
    pairing: options.pairing,
    profileFile: prepared.loaded.file,
    signal: options.signal,
    // No fault on the MCP link: the client reaches the server straight, without a proxy that would only forward.
    directLink: !(prepared.loaded.proxiedLink || needsLinkProxy(profile.faults)),
    reprobeBareFallback: (options.connection ?? policyByName(prepared.policyName).connection)?.reprobeBareFallback,
  });
  parts.env = env;
  // A server that pushes its effects as they happen feeds reconciliation as they come (measure/reconcile.ts).
  if (env.server.onEffect) {
    recorder.effectsLive();
    env.server.onEffect(recorder.effect);
  }
  // Your own client, unless a policy was asked for by name (a negative control): the profile's module or the flag's.
  const moduleFile =
    options.clientModule ??
    (profile.client.module && options.policy === undefined
      ? resolve(dirname(prepared.loaded.file), profile.client.module)
      : undefined);
  const userClient = moduleFile
    ? modulePolicy(await loadClientModule(moduleFile), (attempts) => clientTransport(env.session.options, attempts))
    : undefined;
  parts.userClient = userClient;
  const owns = options.opShard ? (i: number) => ownsOp(options.opShard!, i) : undefined;
  const driver = new TimelineDriver(profile.faults, env, recorder, log, plan.opWindows, owns);
  parts.driver = driver;
  return { ...prepared, recorder, env, moduleFile, userClient, driver };
}

/** Connected, the server's tools listed (a server we did not write), reset hooks run, the tools calibrated. */
async function getReady(run: Up): Promise<Ready> {
  const { profile, env, options } = run;
  // Stopped while the environment came up: straight to the tear-down (the suite reports it interrupted).
  if (options.signal.aborted) throw new Error('the run was stopped during set-up');
  await env.connect();
  // A server we did not write: its tools/list decides which workload tools exist and what they do.
  const listed = listsOwnTools(profile.target) ? await preflight(run.loaded, env.session) : undefined;
  await runHooks('reset', profile.reset, run.placeholders, env.session);
  const calibration = await calibrateFor(profile, env.session, options.signal, options.opShard, {
    traitsOf: toolTraits(profile, listed),
    seed: run.seed,
  });
  return { listed, calibration };
}

/** The faults on their timeline while the workload runs; the workload starts once the faults at 0 are in place. */
async function driveWorkload(run: Up, ready: Ready, parts: RunParts): Promise<Driven> {
  const { env, options } = run;
  // Load that rises after the calibration: both event loops watched from here to the workload's end.
  await env.server.loopLag();
  const harnessLag = new LoopLagWatch();
  parts.harnessLag = harnessLag;
  const t0 = epochMs() + LEAD_IN_MS;
  const everyMs = env.readBack?.duringEveryMs;
  const sampler = env.readBack && everyMs !== undefined ? new DuringSampler(env.readBack, everyMs) : undefined;
  parts.sampler = sampler;
  options.onPhase?.('workload');
  // A listen stream open before the first op (every charge has a stream to be announced on), after the faults at 0
  // are in place (they reach it too).
  const startListening = listenerFor(
    run.profile,
    env.session,
    run.userClient ? {} : (policyByName(run.policyName).listen ?? {}),
  );
  let listener: Listener | undefined;
  let faultsAtZeroInPlace!: () => void;
  const workloadMayStart = new Promise<void>((resolve) => {
    faultsAtZeroInPlace = resolve;
  });
  await Promise.all([
    run.driver.run(run.plan.timeline, t0, options.signal, faultsAtZeroInPlace),
    workloadMayStart.then(async () => {
      listener = startListening?.();
      parts.listener = listener;
      await listener?.ready;
      sampler?.start();
      return runWorkload(workloadDeps(run, ready), t0, options.signal);
    }),
  ]);
  const runLoad = { harness: harnessLag.stop(), server: await env.server.loopLag() };
  await sampler?.finish();
  return { t0, runLoad, sampler, listener };
}

function workloadDeps(run: Up, ready: Ready): WorkloadDeps {
  const { profile, options, scope } = run;
  return {
    profile,
    plan: run.plan,
    policy: run.userClient ?? policyByName(run.policyName),
    session: run.env.session,
    recorder: run.recorder,
    traitsOf: toolTraits(profile, ready.listed),
    client: run.log.stream('client'),
    opShard: options.opShard,
    progress: run.driver,
    ...(scope && { traceIdOf: (opId: string) => traceKey(scope, opId) }),
    onProgress: options.onProgress && ((done) => options.onProgress?.(done, run.recorder.opsNotOk)),
  };
}

/** Faults off, the server drained, the ledger and the decisions read: the run's history. */
async function collect(run: Up, driven: Driven): Promise<Collected> {
  const { profile, env, options, log, scope } = run;
  options.onPhase?.('drain');
  await run.driver.clear();
  const drained = await drain(env.server, profile.drain, options.signal);
  log.append(await env.server.decisions());
  const ledger = await (env.server.ledgerView?.() ?? env.server.ledger());
  // A spilling run keeps its decisions on disk, read back through the log; the library's callers get an array.
  const decisions = options.spillHistory ? log : log.records;
  const history = run.recorder.history(scope ? ownEffects(ledger, scope) : ledger, decisions);
  // A target that cannot show its effects gets n/a effect metrics, never a silent 0.
  if (!env.server.observesEffects) {
    history.effectsObservable = false;
    const why = env.effectsUnknown?.();
    if (why !== undefined) history.effectsUnknown = why;
  }
  const during = driven.sampler?.summary(history, driven.t0);
  if (env.transportEvents.length > 0) history.transportEvents = [...env.transportEvents];
  if (driven.listener) history.subscriptions = await driven.listener.stop();
  const discovery = env.session.discoveries();
  if (discovery.length > 0) history.discovery = discovery;
  // The reference server's front end is the pairing's; what a foreign server speaks is not known.
  if (targetKind(profile.target.kind)?.speaksPairingEra)
    history.serverSpeaksModern = (options.pairing?.server ?? 'sdk1') !== 'sdk1';
  return { history, drained, during };
}

/** The report: metrics, thresholds (the policy's control ones when it is a control), notes. */
function judge(run: Up, ready: Ready, driven: Driven, collected: Collected): ProfileResult {
  const { profile, options, loaded, policyName } = run;
  const { history, drained, during } = collected;
  options.onPhase?.('measure');
  const control = policyName !== profile.client.policy && profile.controls[policyName] !== undefined;
  const exprs = control ? profile.controls[policyName]! : profile.expect;
  const built = buildProfileReport({
    name: profile.name,
    description: profile.description,
    file: loaded.file,
    profileSha256: loaded.sha256,
    seed: run.seed,
    policy: policyName,
    history,
    feed: run.recorder.feed,
    expect: exprs,
    decisionLogSha256: run.log.sha256(),
    drainMs: drained.drainMs,
    unsettled: drained.unsettled,
    interrupted: options.signal.aborted,
    calibration: withRunLoad(ready.calibration, driven.runLoad, profile.client.attemptTimeoutMs),
    metricsOptions: metricsOptionsFor(profile),
    ...(options.control && { control: options.control }),
    ...(options.controlDelayMs !== undefined && { controlDelayMs: options.controlDelayMs }),
    notes: runNotes(run, ready, collected),
  });
  const report = {
    ...built,
    workloadOffsetMs: Math.round(driven.t0 - history.startMs),
    ...(control && { control }),
    ...(during && { readBackDuring: during }),
  };
  return { report, history };
}

/** What the report says about how this run went, besides its numbers. */
function runNotes(run: Up, ready: Ready, collected: Collected): string[] {
  const { profile, env, scope, moduleFile } = run;
  const { listed } = ready;
  const { during, drained } = collected;
  return [
    ...run.loaded.warnings,
    ...(env.session.renewals > 0 ? [`the client re-initialized its session ${env.session.renewals} time(s)`] : []),
    ...negotiationNotes(env.session.negotiations),
    ...transportNotes(env.transportEvents),
    ...env.notes(),
    ...(scope ? [scopeNote(scope)] : []),
    ...(listed ? traitNotes(profile, listed) : []),
    ...(during ? [duringNote(during)] : []),
    ...(moduleFile ? [`client: your module ${moduleFile} (its own retries; attempts observed on the wire)`] : []),
    ...(drained.observable ? [] : ['the target cannot say when it is quiet: the ledger was read without a drain']),
  ];
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
