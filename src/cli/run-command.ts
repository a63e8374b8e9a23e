// faultline run [PROFILE...]: the main job (its flags are declared in program.ts).
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { ProtocolChoice } from '../core/pairing.ts';
import type { PolicyName } from '../core/policy-names.ts';
import type { Shard } from '../core/shard.ts';
import { EXIT_CODE_OF } from '../measure/run-report.ts';
import { createNetworkBackend } from '../network/index.ts';
import { type LoadedProfile, loadProfile } from '../profile/load.ts';
import { largeProfileProblem } from '../profile/size.ts';
import { compareWithBaseline } from '../report/baseline.ts';
import { formatConsoleSummary } from '../report/console.ts';
import { writeReports } from '../report/write.ts';
import { hasFaults } from '../run/faults-off.ts';
import { spillsHistory } from '../run/history-mode.ts';
import type { NetworkFactory } from '../run/run-profile.ts';
import { runSuite } from '../run/run-suite.ts';
import { runShare, shardProfiles, writeShardOutput } from '../run/shard-output.ts';
import { checkAgainstTarget } from '../run/target-check.ts';
import { freshRunId, isRunId, type ShardScope } from '../run/trace-key.ts';
import { readBaseline } from './baseline-command.ts';
import { discoverProfiles } from './discover.ts';
import { abortOnSignals } from './interrupt.ts';
import { prepareOutDir, writtenFiles } from './out-dir.ts';
import { Progress } from './progress.ts';
import { runJobs, setsUpDuringDrain } from './run-jobs.ts';
import { invocationOf, type TargetFlags, targetFromFlags } from './target-flags.ts';
import { EXIT, UserError } from './user-error.ts';

export interface RunFlags extends TargetFlags {
  seed?: number;
  out: string;
  policy?: PolicyName;
  /** Override every profile's protocol pairing choice. */
  protocol?: ProtocolChoice;
  toxiproxy: string;
  allowNonLoopback?: boolean;
  /** Run profiles over the size caps (LARGE_CAPS). */
  allowLarge?: boolean;
  /** Compare with this baseline: it decides the exit code (known failures do not fail the run). */
  baseline?: string;
  /** Also write the metrics in Prometheus text format here. */
  metricsOut?: string;
  /** Your own client module for every profile (docs/own-client.md). */
  clientModule?: string;
  /** Run only this share of the profiles and write shard.json for `faultline merge`. */
  shard?: Shard;
  /** The run's id in trace ids and idempotency keys on a server the shards share (default: a fresh one). */
  runId?: string;
  /** Every profile's numbers in the console summary. */
  verbose?: boolean;
  /** off: run each profile with its faults removed, as a control that must fail (README "Faults-off control"). */
  faults?: 'on' | 'off';
  /** Profiles run at once (run-jobs.ts decides when more than one is safe). */
  jobs?: number;
}

export async function runCommand(args: string[], flags: RunFlags): Promise<number> {
  const target = targetFromFlags(flags);
  const faultsOff = flags.faults === 'off';
  if (faultsOff) refuseWithFaultsOff(flags);
  const discovered = discoverProfiles(args).map((file) => loadProfile(file, { target }));
  const all = faultsOff ? withFaultsToTurnOff(discovered) : discovered;
  const { profiles: loaded, opShard } = flags.shard ? shardProfiles(all, flags.shard) : { profiles: all };
  const runScope = flags.shard && shardScope(flags.shard, flags.runId);
  if (!flags.allowLarge) refuseLarge(loaded);
  // Every input is checked before anything is written: a bad baseline leaves no --out folder behind.
  const baseline = flags.baseline ? readBaseline(flags.baseline) : undefined;
  // A server we did not write is asked for its tools first: a wrong tool name or a server that does not start is
  // one line, and no --out folder is left behind.
  for (const l of loaded) await checkAgainstTarget(l, { allowNonLoopback: flags.allowNonLoopback === true });
  prepareOutDir(flags.out);
  for (const l of loaded) for (const w of l.warnings) process.stderr.write(`faultline: warning: ${l.file}: ${w}\n`);
  const jobs = runJobs(flags, loaded, (line) => process.stderr.write(`${line}\n`));
  const interrupt = abortOnSignals();
  const progress = new Progress(loaded, { stream: process.stderr, jobs });
  interrupt.signal.addEventListener('abort', () => progress.stop());
  const say = progress.log;
  if (faultsOff) {
    const none = discovered.filter((l) => !hasFaults(l.profile)).map((l) => l.profile.name);
    say('faultline: FAULTS-OFF CONTROL: each profile runs with its faults removed; a pass means it does not need them');
    if (none.length > 0) say(`faultline: not run, no faults to turn off: ${none.join(', ')}`);
  }
  let announced = false;
  const network: NetworkFactory = async (seed, onDecision) => {
    const backend = await createNetworkBackend(flags.toxiproxy, {
      seed,
      onDecision,
      allowNonLoopback: flags.allowNonLoopback === true,
    });
    if (!announced) say(`faultline: network backend ${backend.kind} (Toxiproxy API ${backend.apiUrl})`);
    announced = true;
    return backend;
  };
  try {
    const { run, histories, controls } = await runSuite(loaded, {
      network,
      seed: flags.seed,
      policy: flags.policy,
      protocol: flags.protocol,
      signal: interrupt.signal,
      allowNonLoopback: flags.allowNonLoopback === true,
      opShard,
      ...(runScope && { runScope }),
      clientModule: flags.clientModule && resolve(flags.clientModule),
      spillHistory: spillsHistory(),
      jobs,
      setUpDuringDrain: setsUpDuringDrain(flags, loaded),
      say,
      onProfileStart: progress.onProfileStart,
      onPhase: progress.onPhase,
      onProgress: progress.onProgress,
      onProfileEnd: progress.onProfileEnd,
      faultsOff,
    });
    progress.stop();
    const invocation = invocationOf(flags);
    if (invocation) run.invocation = invocation;
    if (baseline && flags.baseline) run.baseline = compareWithBaseline(run, baseline, flags.baseline);
    const written = await writeReports(flags.out, run, histories);
    if (flags.metricsOut) {
      const { renderPrometheus } = await import('../report/prometheus.ts');
      await writeFile(flags.metricsOut, await renderPrometheus(run));
      written.push(flags.metricsOut);
    }
    if (flags.shard) {
      written.push(
        await writeShardOutput(
          flags.out,
          runShare(flags.shard, all, flags.runId, flags.protocol),
          run,
          histories,
          flags.seed,
          controls,
        ),
      );
    }
    const reportHtml = join(flags.out, 'report.html');
    process.stdout.write(`${formatConsoleSummary(run, { histories, verbose: flags.verbose, reportHtml })}\n`);
    say(`faultline: reports in ${flags.out}/ (${writtenFiles(flags.out, written)})`);
    // Stopped: the reports hold the finished profiles and the interrupted one; the exit code says interrupted.
    if (interrupt.signal.aborted) return EXIT.interrupted;
    if (run.baseline) return run.baseline.ok ? EXIT.ok : EXIT.thresholdFailed;
    // A faults-off control exits 0 when every profile failed without its faults (README "Faults-off control").
    return EXIT_CODE_OF[run.faultsOff?.verdict ?? run.verdict];
  } finally {
    progress.stop();
    interrupt.dispose();
  }
}

/** The sharded run's scope; a --run-id that cannot be part of a key is one line, exit 2. */
export function shardScope(shard: Shard, runId: string | undefined): ShardScope {
  if (runId !== undefined && !isRunId(runId)) {
    throw new UserError(`--run-id ${JSON.stringify(runId)}: expected 1-64 of [A-Za-z0-9._-] (e.g. a CI run id)`);
  }
  return { runId: runId ?? freshRunId(), shard };
}

/** A faults-off control is judged by its own rule: a baseline or a shard merge would judge it as a real run. */
function refuseWithFaultsOff(flags: RunFlags): void {
  for (const flag of ['baseline', 'shard'] as const) {
    if (flags[flag] !== undefined)
      throw new UserError(`--faults off runs controls, not the profiles: it cannot be combined with --${flag}`);
  }
}

/** The profiles a faults-off control applies to: those with faults (one line, exit 2, when none has any). */
function withFaultsToTurnOff(loaded: LoadedProfile[]): LoadedProfile[] {
  const faulted = loaded.filter((l) => hasFaults(l.profile));
  if (faulted.length === 0)
    throw new UserError(`--faults off: none of ${loaded.map((l) => l.file).join(', ')} has faults to turn off`);
  return faulted;
}

function refuseLarge(loaded: LoadedProfile[]): void {
  for (const { file, profile } of loaded) {
    const problem = largeProfileProblem(profile);
    if (problem) throw new UserError(`${file}: ${problem}`);
  }
}
