// faultline capacity PROFILE --levels 1,4,16 | --rates 10,50: the profile at each load level, a no-fault control
// and the faulted run side by side, the knee named (its flags are declared in program.ts).
import type { PolicyName } from '../core/policy-names.ts';
import type { Shard } from '../core/shard.ts';
import { DEFAULT_KNEE_RULE, type KneeRule } from '../measure/capacity.ts';
import type { RunReport } from '../measure/run-report.ts';
import type { ShardCapacity } from '../measure/shard-format.ts';
import { createNetworkBackend } from '../network/index.ts';
import { loadProfile } from '../profile/load.ts';
import { largeProfileProblem } from '../profile/size.ts';
import { formatCapacityText } from '../report/capacity-table.ts';
import { fmtMs, fmtPct } from '../report/format.ts';
import { writeReports } from '../report/write.ts';
import { spillsHistory } from '../run/history-mode.ts';
import { capacityRuns, runCapacity } from '../run/run-capacity.ts';
import type { NetworkFactory } from '../run/run-profile.ts';
import { writeShardOutput } from '../run/shard-output.ts';
import { abortOnSignals } from './interrupt.ts';
import { prepareOutDir, writtenFiles } from './out-dir.ts';
import { Progress } from './progress.ts';
import { shardScope } from './run-command.ts';
import { EXIT, UserError } from './user-error.ts';

export interface CapacityFlags {
  levels?: number[];
  rates?: number[];
  seed?: number;
  out: string;
  policy?: PolicyName;
  toxiproxy: string;
  allowNonLoopback?: boolean;
  allowLarge?: boolean;
  kneeP99Ratio?: number;
  kneeSuccessDrop?: number;
  /** Run the i-th of n shares of every level's ops and write shard.json for `faultline merge`. */
  shard?: Shard;
  /** With --shard on a url/http target: the run in trace ids and idempotency keys. */
  runId?: string;
}

export async function capacityCommand(file: string, flags: CapacityFlags): Promise<number> {
  if ((flags.levels === undefined) === (flags.rates === undefined)) {
    throw new UserError(
      'capacity: give exactly one of --levels (closed loop: ops in flight) or --rates (open loop: ops/s)',
    );
  }
  const mode = flags.levels ? 'concurrency' : 'rate';
  const levels = flags.levels ?? flags.rates!;
  const loaded = loadProfile(file);
  if (loaded.profile.faults.length === 0) {
    throw new UserError(`${file}: capacity compares a faulted run with a no-fault control; the profile has no faults`);
  }
  const runs = capacityRuns(loaded, mode, levels);
  if (!flags.allowLarge) {
    for (const r of runs) {
      const problem = largeProfileProblem(r.faulted.profile);
      if (problem) throw new UserError(`${file} at ${r.level}: ${problem}`);
    }
  }
  const rule: KneeRule = {
    p99Ratio: flags.kneeP99Ratio ?? DEFAULT_KNEE_RULE.p99Ratio,
    successDropPoints: flags.kneeSuccessDrop ?? DEFAULT_KNEE_RULE.successDropPoints,
  };
  const runScope = flags.shard && shardScope(flags.shard, flags.runId);
  // Sharded: every run of every level is split by its ops (one shard of n runs 1/n of each level's ops and workers).
  const opShard = flags.shard && flags.shard.count > 1 ? flags.shard : undefined;
  prepareOutDir(flags.out);
  for (const w of loaded.warnings) process.stderr.write(`faultline: warning: ${file}: ${w}\n`);
  const interrupt = abortOnSignals();
  const progress = new Progress(
    runs.flatMap((r) => [r.control, r.faulted]),
    { stream: process.stderr },
  );
  interrupt.signal.addEventListener('abort', () => progress.stop());
  const say = progress.log;
  const network: NetworkFactory = (seed, onDecision) =>
    createNetworkBackend(flags.toxiproxy, { seed, onDecision, allowNonLoopback: flags.allowNonLoopback === true });
  try {
    say(
      `faultline capacity: ${loaded.profile.name} at ${levels.join(', ')} ${mode === 'concurrency' ? 'ops in flight' : 'ops/s'}, each level a no-fault control then the faulted run`,
    );
    const { run, histories } = await runCapacity(loaded, {
      mode,
      levels,
      rule,
      network,
      seed: flags.seed,
      policy: flags.policy,
      signal: interrupt.signal,
      allowNonLoopback: flags.allowNonLoopback === true,
      ...(opShard && { opShard }),
      ...(runScope && { runScope }),
      spillHistory: spillsHistory(),
      say,
      onProfileStart: progress.onProfileStart,
      onPhase: progress.onPhase,
      onProgress: progress.onProgress,
      onProfileEnd: progress.onProfileEnd,
      onLevel: (level, control, faulted) => {
        const line = (r: typeof control) =>
          `${r.metrics.opsOk}/${r.metrics.ops} ok, p99 ${fmtMs(r.metrics.ops > 0 ? r.metrics.latencyMs.p99 : null)}, ${fmtPct(r.metrics.ops > 0 ? r.metrics.opsOk / r.metrics.ops : null)} success`;
        say(`  level ${level}: control ${line(control)} | faulted ${line(faulted)}`);
      },
    });
    progress.stop();
    if (interrupt.signal.aborted) {
      say('faultline: interrupted; no report written');
      return EXIT.interrupted;
    }
    const written = await writeReports(flags.out, run, histories);
    if (flags.shard) {
      const all = runs.flatMap((r) => [r.control, r.faulted]);
      const capacity: ShardCapacity = {
        profile: loaded.profile.name,
        mode,
        rule,
        levels: runs.map((r) => ({ level: r.level, control: r.control.profile.name, faulted: r.faulted.profile.name })),
      };
      const ran = { shard: flags.shard, all, share: { profiles: all }, capacity, runId: flags.runId };
      written.push(await writeShardOutput(flags.out, ran, run, histories, flags.seed));
    }
    process.stdout.write(formatCapacityText(run.capacity));
    say(`faultline: reports in ${flags.out}/ (${writtenFiles(flags.out, written)})`);
    return capacityExitCode(run);
  } finally {
    progress.stop();
    interrupt.dispose();
  }
}

/** The review is the product: thresholds are shown per run, and only a run that could not complete fails it. */
export function capacityExitCode(run: RunReport): number {
  return run.profiles.some((p) => p.error) ? EXIT.thresholdFailed : EXIT.ok;
}
