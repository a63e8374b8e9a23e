// faultline run [PROFILE...]: the main job.
import { writeFile } from 'node:fs/promises';
import { type Command, Option } from 'commander';
import { POLICIES, type PolicyName } from '../client/policies/index.ts';
import { createNetworkBackend } from '../network/index.ts';
import { loadProfile } from '../profile/load.ts';
import { compareWithBaseline } from '../report/baseline.ts';
import { formatConsoleSummary } from '../report/console.ts';
import { Progress } from '../report/progress.ts';
import { renderPrometheus } from '../report/prometheus.ts';
import { writeReports } from '../report/write.ts';
import type { NetworkFactory } from '../run/run-profile.ts';
import { runSuite } from '../run/run-suite.ts';
import { readBaseline } from './baseline-command.ts';
import { discoverProfiles } from './discover.ts';
import { abortOnSignals } from './interrupt.ts';
import { parseSeed } from './parse.ts';
import { EXIT } from './user-error.ts';

export interface RunFlags {
  seed?: number;
  out: string;
  policy?: PolicyName;
  toxiproxy: string;
  allowNonLoopback?: boolean;
  /** Replay: the decision log hash the original run had. */
  expectDecisionLog?: string;
  /** Compare with this baseline: it decides the exit code (known failures do not fail the run). */
  baseline?: string;
  /** Also write the metrics in Prometheus text format here. */
  metricsOut?: string;
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
    .option('--baseline <file>', 'compare with a baseline (faultline baseline update): only regressions fail')
    .option(
      '--metrics-out <file>',
      'also write the metrics in Prometheus text format (textfile collector, Pushgateway)',
    )
    .action(async (profiles: string[], flags: RunFlags) => {
      process.exitCode = await runCommand(profiles, flags);
    });
}

export async function runCommand(args: string[], flags: RunFlags): Promise<number> {
  const loaded = discoverProfiles(args).map(loadProfile);
  for (const l of loaded) for (const w of l.warnings) process.stderr.write(`faultline: warning: ${l.file}: ${w}\n`);
  const baseline = flags.baseline ? readBaseline(flags.baseline) : undefined;
  const interrupt = abortOnSignals();
  const progress = new Progress(loaded, { stream: process.stderr });
  interrupt.signal.addEventListener('abort', () => progress.stop());
  const say = progress.log;
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
      onProfileStart: progress.onProfileStart,
      onPhase: progress.onPhase,
      onProgress: progress.onProgress,
      onProfileEnd: progress.onProfileEnd,
    });
    progress.stop();
    if (baseline && flags.baseline) run.baseline = compareWithBaseline(run, baseline, flags.baseline);
    if (interrupt.signal.aborted) {
      say('faultline: interrupted; no report written');
      return EXIT.interrupted;
    }
    const written = await writeReports(flags.out, run, histories);
    if (flags.metricsOut) {
      await writeFile(flags.metricsOut, await renderPrometheus(run));
      written.push(flags.metricsOut);
    }
    if (flags.expectDecisionLog) {
      const same = run.profiles[0]?.decisionLogSha256 === flags.expectDecisionLog;
      say(
        `faultline: decision log ${same ? 'identical to' : 'DIFFERS from'} the original run (${flags.expectDecisionLog.slice(0, 12)}…)`,
      );
    }
    process.stdout.write(`${formatConsoleSummary(run, { histories })}\n`);
    say(`faultline: reports in ${flags.out}/ (${written.map((p) => p.split('/').pop()).join(', ')})`);
    if (run.baseline) return run.baseline.ok ? EXIT.ok : EXIT.thresholdFailed;
    return run.verdict === 'pass' ? EXIT.ok : EXIT.thresholdFailed;
  } finally {
    progress.stop();
    interrupt.dispose();
  }
}
