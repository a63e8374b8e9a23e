// faultline run [PROFILE...]: the main job (its flags are declared in program.ts).
import type { PolicyName } from '../client/policies/names.ts';
import { EXIT_CODE_OF } from '../measure/run-report.ts';
import { createNetworkBackend } from '../network/index.ts';
import { loadProfile } from '../profile/load.ts';
import { formatConsoleSummary } from '../report/console.ts';
import { writeReports } from '../report/write.ts';
import type { NetworkFactory } from '../run/run-profile.ts';
import { runSuite } from '../run/run-suite.ts';
import { discoverProfiles } from './discover.ts';
import { abortOnSignals } from './interrupt.ts';
import { EXIT } from './user-error.ts';

export interface RunFlags {
  seed?: number;
  out: string;
  policy?: PolicyName;
  toxiproxy: string;
  allowNonLoopback?: boolean;
  /** Replay: the decision log hash the original run had. */
  expectDecisionLog?: string;
}

export async function runCommand(args: string[], flags: RunFlags): Promise<number> {
  const loaded = discoverProfiles(args).map(loadProfile);
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
