// Every command's name, arguments, options and help, and which module runs it. Declared here, apart from the
// commands, so `faultline --help` and `faultline validate` load only commander and what they need: each command's
// module is imported when that command runs.
import { Command, Option } from 'commander';
import { POLICY_NAMES } from '../client/policies/names.ts';
import { packageVersion } from '../core/package-root.ts';
import type { LimitsFlags } from './limits-command.ts';
import { parsePort, parseSeed } from './parse.ts';
import type { ReplayFlags } from './replay-command.ts';
import type { RunFlags } from './run-command.ts';
import type { ServerFlags } from './server-command.ts';
import type { ToxiproxyCommandOptions } from './toxiproxy-command.ts';

export function buildProgram(): Command {
  const program = new Command('faultline')
    .description('Chaos harness for MCP tool calls: real faults, a real client and server, measured.')
    .version(packageVersion())
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();

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
        POLICY_NAMES,
      ),
    )
    .option('--toxiproxy <backend>', 'network backend: embedded, container, or the URL of a Toxiproxy API', 'embedded')
    .option('--allow-non-loopback', 'allow a Toxiproxy API or target that is not on 127.0.0.0/8 or ::1')
    .action(async (profiles: string[], flags: RunFlags) => {
      const { runCommand } = await import('./run-command.ts');
      process.exitCode = await runCommand(profiles, flags);
    });

  program
    .command('validate')
    .description('check profiles (schema, fault kinds, tools, thresholds, timeout layering) without running them')
    .argument('[profiles...]', 'profile files or folders (default: chaos-profiles/)')
    .action(async (profiles: string[]) => {
      const { validateCommand } = await import('./validate-command.ts');
      process.exitCode = validateCommand(profiles);
    });

  program
    .command('replay')
    .description('rerun the failed profiles of a report.json with the same seed, policy and profile file')
    .argument('<report>', 'a report.json written by faultline run')
    .option('--all', 'rerun every profile, not only the failed ones')
    .option('--out <dir>', 'where to write the replay reports', 'faultline-replay')
    .option('--toxiproxy <backend>', 'network backend: embedded, container, or a Toxiproxy API URL', 'embedded')
    .option('--seed <n>', 'use another seed than the report (to check a fix holds elsewhere)', parseSeed)
    .action(async (file: string, flags: ReplayFlags) => {
      const { replayCommand } = await import('./replay-command.ts');
      process.exitCode = await replayCommand(file, flags);
    });

  program
    .command('schema')
    .description('print the JSON Schema of chaos profiles')
    .action(async () => {
      const { schemaCommand } = await import('./schema-command.ts');
      schemaCommand();
    });

  program
    .command('server')
    .description('run the reference MCP server (Streamable HTTP) in the foreground')
    .option('--host <host>', 'address to bind', '127.0.0.1')
    .option('--port <port>', 'port to bind (0 picks a free one)', parsePort, 0)
    .option('--seed <n>', 'seed of the dependency fault draws', parseSeed, 1)
    .option('--no-event-store', 'turn resumability off')
    .addOption(new Option('--dependency-timeout-ms <ms>', 'timeout on dependency calls').argParser(parsePort))
    .option('--admin-port <port>', 'also serve the control API (faults, ledger, reset) on this port', parsePort)
    .option('--admin-token <token>', 'bearer token for the control API (default: a random one, printed)')
    .option('--allow-non-loopback', 'allow binding an address outside 127.0.0.0/8 and ::1')
    .action(async (flags: ServerFlags) => {
      const { serverCommand } = await import('./server-command.ts');
      await serverCommand(flags);
    });

  program
    .command('toxiproxy')
    .description('run the embedded Toxiproxy-compatible server (drop-in for toxiproxy-server; seeded draws)')
    .option('--host <host>', 'API and default proxy listen host', '127.0.0.1')
    .option('--port <port>', 'API port', '8474')
    .option('--seed <n>', 'seed for toxicity, jitter and slicer draws', '0')
    .option('--allow-non-loopback', 'allow a --host that is not a loopback address')
    .action(async (options: ToxiproxyCommandOptions) => {
      const { runToxiproxyServer } = await import('./toxiproxy-command.ts');
      await runToxiproxyServer(options);
    });

  program
    .command('limits')
    .description('discover the largest safe request and result size per transport (HTTP) against the reference server')
    .option('--out <dir>', 'where to write limits.json', 'faultline-report')
    .option('--max-mb <n>', 'ceiling of the sizes tried, in MiB', parsePort, 64)
    .option('--timeout-ms <ms>', 'a probe slower than this counts as failed', parsePort, 20_000)
    .action(async (flags: LimitsFlags) => {
      const { limitsCommand } = await import('./limits-command.ts');
      process.exitCode = await limitsCommand(flags);
    });

  return program;
}
