// faultline run [PROFILE...]: the main job.
import { type Command, Option } from 'commander';
import { POLICIES, type PolicyName } from '../client/policies/index.ts';
import { EXIT_CODE_OF } from '../measure/run-report.ts';
import { createNetworkBackend } from '../network/index.ts';
import { type LoadedProfile, loadProfile } from '../profile/load.ts';
import { LARGE_CAPS, largeProfileProblem } from '../profile/size.ts';
import { formatConsoleSummary } from '../report/console.ts';
import { writeReports } from '../report/write.ts';
import type { NetworkFactory } from '../run/run-profile.ts';
import { runSuite } from '../run/run-suite.ts';
import { parseShard, type Shard } from '../run/shard.ts';
import { shardProfiles, writeShardOutput } from '../run/shard-output.ts';
import { discoverProfiles } from './discover.ts';
import { abortOnSignals } from './interrupt.ts';
import { prepareOutDir } from './out-dir.ts';
import { parseSeed } from './parse.ts';
import { EXIT, UserError } from './user-error.ts';

export interface RunFlags {
  seed?: number;
  out: string;
  policy?: PolicyName;
  toxiproxy: string;
  allowNonLoopback?: boolean;
  /** Run profiles over the size caps (LARGE_CAPS). */
  allowLarge?: boolean;
  /** Replay: the decision log hash the original run had. */
  expectDecisionLog?: string;
  /** Run only this share of the profiles and write shard.json for `faultline merge`. */
  shard?: Shard;
}

export function registerRunCommand(program: Command): void {
  program
    .command('run')
    .description('run chaos profiles (default: every profile in chaos-profiles/) and write reports')
    .argument('[profiles...]', 'profile files or folders')
    .option('--seed <n>', 'override every profile seed (replays the same faults at the same moments)', parseSeed)
    .option(
      '--out <dir>',
      'where to write report.json, junit.xml, report.html, summary.md, trace.jsonl',
      'faultline-report',
    )
    .addOption(
      new Option('--policy <name>', 'override the client policy (naive and none are negative controls)').choices(
        Object.keys(POLICIES),
      ),
    )
    .option('--toxiproxy <backend>', 'network backend: embedded, container, or the URL of a Toxiproxy API', 'embedded')
    .option('--allow-non-loopback', 'allow a Toxiproxy API or target that is not on 127.0.0.0/8 or ::1')
    .option('--shard <i/n>', 'run the i-th of n deterministic shares and write shard.json (docs/scale.md)', parseShard)
    .option(
      '--allow-large',
      `run profiles over the size caps: more than ${LARGE_CAPS.ops} ops or longer than ${LARGE_CAPS.durationMs / 60_000} min`,
    )
    .addHelpText(
      'after',
      [
        '',
        'Before anything starts: every profile is validated, --out is created and test-written, and each',
        `profile's size is checked against the caps: at most ${LARGE_CAPS.ops} ops (rate × duration; closed model:`,
        `concurrency × duration ÷ 10 ms) and ${LARGE_CAPS.durationMs / 60_000} min, unless --allow-large (every op's history`,
        'stays in memory until the reports are written). Bad input exits with 2 and one line on stderr.',
        '',
      ].join('\n'),
    )
    .action(async (profiles: string[], flags: RunFlags) => {
      process.exitCode = await runCommand(profiles, flags);
    });
}

export async function runCommand(args: string[], flags: RunFlags): Promise<number> {
  const all = discoverProfiles(args).map(loadProfile);
  const loaded = flags.shard ? shardProfiles(all, flags.shard) : all;
  if (!flags.allowLarge) refuseLarge(loaded);
  prepareOutDir(flags.out);
  for (const l of loaded) for (const w of l.warnings) process.stderr.write(`faultline: warning: ${l.file}: ${w}\n`);
  const interrupt = abortOnSignals();
  const say = (line: string) => process.stderr.write(`${line}\n`);
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
    const { run, histories } = await runSuite(loaded, {
      network,
      seed: flags.seed,
      policy: flags.policy,
      signal: interrupt.signal,
      allowNonLoopback: flags.allowNonLoopback === true,
      say,
    });
    if (interrupt.signal.aborted) {
      say('faultline: interrupted; no report written');
      return EXIT.interrupted;
    }
    const written = await writeReports(flags.out, run, histories);
    if (flags.shard) written.push(await writeShardOutput(flags.out, flags.shard, all, run, histories, flags.seed));
    if (flags.expectDecisionLog) {
      const same = run.profiles[0]?.decisionLogSha256 === flags.expectDecisionLog;
      say(
        `faultline: decision log ${same ? 'identical to' : 'DIFFERS from'} the original run (${flags.expectDecisionLog.slice(0, 12)}…)`,
      );
    }
    process.stdout.write(`${formatConsoleSummary(run)}\n`);
    say(`faultline: reports in ${flags.out}/ (${written.map((p) => p.split('/').pop()).join(', ')})`);
    return EXIT_CODE_OF[run.verdict];
  } finally {
    interrupt.dispose();
  }
}

function refuseLarge(loaded: LoadedProfile[]): void {
  for (const { file, profile } of loaded) {
    const problem = largeProfileProblem(profile);
    if (problem) throw new UserError(`${file}: ${problem}`);
  }
}
