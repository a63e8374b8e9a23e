// Every command's name, arguments, options and help, and which module runs it. Declared here, apart from the
// commands, so `faultline --help` and `faultline validate` load only commander and what they need: each command's
// module is imported when that command runs.
import { Command, Option } from 'commander';
import { SERVER_PROTOCOLS } from '../core/front-end.ts';
import { packageVersion } from '../core/package-root.ts';
import { PROTOCOL_CHOICES } from '../core/pairing.ts';
import { POLICY_NAMES } from '../core/policy-names.ts';
import { parseShard } from '../core/shard.ts';
import { LARGE_CAPS, WORKLOAD_LIMITS } from '../profile/caps.ts';
import type { CapacityFlags } from './capacity-command.ts';
import type { ConformanceFlags } from './conformance-command.ts';
import type { IdempotencyFlags } from './idempotency-command.ts';
import type { LimitsFlags } from './limits-command.ts';
import { parseCount, parseLevelList, parsePort, parsePositive, parseSeed, parseUpTo } from './parse.ts';
import type { PlanFlags } from './plan-command.ts';
import type { RecordFlags } from './record-command.ts';
import type { ReplayFlags } from './replay-command.ts';
import type { RunFlags } from './run-command.ts';
import { DEFAULT_JOBS, MAX_JOBS } from './run-jobs.ts';
import type { ServerFlags } from './server-command.ts';
import type { ToxiproxyCommandOptions } from './toxiproxy-command.ts';
import type { ValidateFlags } from './validate-command.ts';

/** One of the target flags, the same for run, validate and plan (cli/target-flags.ts). */
function targetOption(flags: string, what: string): Option {
  return new Option(flags, `the profiles' target: ${what}, instead of each profile's own`);
}

/** --target-env KEY=VALUE, repeatable: each one adds to the stdio target's environment. */
function targetEnvOption(): Option {
  return new Option(
    '--target-env <KEY=VALUE>',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the ${env:NAME} placeholder is literal text
    'an environment variable for the --target-command or --mcp-config stdio server (repeatable; ${env:NAME} works)',
  )
    .argParser((pair: string, earlier: string[] = []) => [...earlier, pair])
    .default(undefined);
}

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
    .addOption(
      new Option(
        '--protocol <pairing>',
        "override every profile's protocol: legacy (SDK 1.32, 2025-11-25), modern (SDK 2.4, 2026-07-28), auto (negotiating against a dual-era server), matrix (all, one column each)",
      ).choices(PROTOCOL_CHOICES),
    )
    .option('--toxiproxy <backend>', 'network backend: embedded, container, or the URL of a Toxiproxy API', 'embedded')
    .option('--allow-non-loopback', 'allow a Toxiproxy API or target that is not on 127.0.0.0/8 or ::1')
    .addOption(targetOption('--target-command <command>', 'a stdio server, e.g. "node server.js"'))
    .addOption(targetOption('--target-url <url>', 'a Streamable HTTP server'))
    .addOption(targetOption('--mcp-config <file>', 'a server of this mcpServers JSON (with --server)'))
    .option('--server <name>', 'the server of the --mcp-config file')
    .addOption(targetEnvOption())
    .option('--client-module <file>', 'run your own client instead of the policy (docs/own-client.md)')
    .option('--shard <i/n>', 'run the i-th of n deterministic shares and write shard.json (docs/scale.md)', parseShard)
    .option(
      '--run-id <id>',
      'with --shard on a url/http target every shard shares: the run in each trace id and idempotency key (default: fresh)',
    )
    .option(
      '--allow-large',
      `run profiles over the size caps: more than ${LARGE_CAPS.ops} ops or longer than ${LARGE_CAPS.durationMs / 60_000} min`,
    )
    .option('--baseline <file>', 'compare with a baseline (faultline baseline update): only regressions fail')
    .addOption(
      new Option(
        '--faults <on|off>',
        'off: a faults-off control, each profile with its faults removed; exits 0 only when every one fails',
      )
        .choices(['on', 'off'])
        .default('on'),
    )
    .option(
      '--metrics-out <file>',
      'also write the metrics in Prometheus text format (textfile collector, Pushgateway)',
    )
    .option('--verbose', "print every profile's numbers, not only what did not pass (the summary's default)")
    .option(
      '--jobs <n>',
      `profiles run at once, 1 to ${MAX_JOBS} (default ${DEFAULT_JOBS}; always 1 where profiles could confound each other)`,
      parseUpTo(MAX_JOBS),
    )
    .addHelpText(
      'after',
      [
        '',
        '--jobs n runs up to n profiles at once, each with its own server, proxies and temporary files; the reports',
        'list them in profile order, each from its own seed as when run alone. One at a time by default: two at once',
        'broke count thresholds on a loaded 2-core machine (docs/scale.md). Always one at a time (said, when --jobs',
        'asked for more) with a --target-url or http target (one server every profile shares), an external',
        'Toxiproxy, a client module (loaded once into this process), --shard or --baseline. A profile judged against',
        'its faults-off control (`x control`) runs the control and itself with no other profile beside them.',
        'Where profiles could run at once, the next one sets up (server, connection, calibration) while the last',
        "one drains (waits for its server to go quiet); its lines still come out after the last one's.",
        '',
        'Before anything starts: every profile is validated, --out is created and test-written, and each',
        `profile's size is checked against the caps: at most ${LARGE_CAPS.ops} ops (rate × duration; closed model:`,
        `concurrency × duration ÷ 10 ms) and ${LARGE_CAPS.durationMs / 60_000} min, unless --allow-large (the largest`,
        'run measured end to end, docs/scale.md). Bad input exits with 2 and one line on stderr.',
        'Exit codes: 0 pass, 1 fail or inert, 2 bad input, 3 inconclusive, 130 interrupted. With --faults off:',
        '0 when every profile failed a threshold without its faults, 1 when one passed (or errored) without them.',
        '',
      ].join('\n'),
    )
    .action(async (profiles: string[], flags: RunFlags) => {
      const { runCommand } = await import('./run-command.ts');
      process.exitCode = await runCommand(profiles, flags);
    });

  program
    .command('capacity')
    .description(
      'run one profile at several load levels, each as a no-fault control and the faulted run, and name the knee',
    )
    .argument('<profile>', 'a profile file (with faults)')
    .option(
      '--levels <list>',
      'closed loop: ops in flight per level, e.g. 1,4,16,64 (replaces workload.concurrency/rate)',
      (v: string) => parseLevelList(v, 'ops in flight', WORKLOAD_LIMITS.concurrency, false),
    )
    .option(
      '--rates <list>',
      'open loop: ops started per second per level, e.g. 10,50,200; latency counts from the intended start',
      (v: string) => parseLevelList(v, 'ops per second', WORKLOAD_LIMITS.rate, true),
    )
    .option('--seed <n>', 'override the profile seed (every run of every level uses the same one)', parseSeed)
    .option('--out <dir>', 'where to write report.json, report.html, summary.md and the rest', 'faultline-capacity')
    .addOption(new Option('--policy <name>', 'override the client policy').choices(POLICY_NAMES))
    .option('--toxiproxy <backend>', 'network backend: embedded, container, or the URL of a Toxiproxy API', 'embedded')
    .option('--allow-non-loopback', 'allow a Toxiproxy API or target that is not on 127.0.0.0/8 or ::1')
    .option('--allow-large', 'run levels over the size caps (as faultline run --allow-large)')
    .option(
      '--shard <i/n>',
      "run the i-th of n shares of every level's ops (and workers), write shard.json; faultline merge judges the knee once",
      parseShard,
    )
    .option('--run-id <id>', 'with --shard on a url/http target every shard shares: the run in each trace id and key')
    .option(
      '--knee-p99-ratio <x>',
      "the knee rule: faulted p99 over this many times the control's (default 2)",
      parsePositive,
    )
    .option(
      '--knee-success-drop <points>',
      "the knee rule: faulted op success more than this many points below the control's (default 5)",
      parsePositive,
    )
    .addHelpText(
      'after',
      [
        '',
        'Each level runs the profile twice with the same seed and plan: without its faults and thresholds (the',
        'control), then as written. The knee is the lowest level where the faulted run breaks away from its control',
        '(the rule is printed with the table). With --shard i/n every level is split by its ops; merge the shards',
        'with faultline merge (docs/scale.md). Exit codes: 0 the review was written, 1 a run could not complete,',
        '2 bad input, 130 interrupted. See docs/capacity.md.',
        '',
      ].join('\n'),
    )
    .action(async (file: string, flags: CapacityFlags) => {
      const { capacityCommand } = await import('./capacity-command.ts');
      process.exitCode = await capacityCommand(file, flags);
    });

  program
    .command('validate')
    .description(
      'check profiles (schema, fault kinds, tools and their arguments, thresholds, value ranges, timeout layering) without running them',
    )
    .argument('[profiles...]', 'profile files or folders (default: chaos-profiles/)')
    .addOption(targetOption('--target-command <command>', 'a stdio server, e.g. "node server.js"'))
    .addOption(targetOption('--target-url <url>', 'a Streamable HTTP server'))
    .addOption(targetOption('--mcp-config <file>', 'a server of this mcpServers JSON (with --server)'))
    .option('--server <name>', 'the server of the --mcp-config file')
    .addOption(targetEnvOption())
    .option('--allow-non-loopback', 'allow a target that is not on 127.0.0.0/8 or ::1')
    .addHelpText(
      'after',
      '\nA target that lists its own tools (stdio, http, a url without admin; from a flag or the profile) is started or\nconnected to and its tools/list checked against each workload (tool names, fixed argument values), as\nfaultline run does before it starts.\n',
    )
    .action(async (profiles: string[], flags: ValidateFlags) => {
      const { validateCommand } = await import('./validate-command.ts');
      process.exitCode = await validateCommand(profiles, flags);
    });

  program
    .command('idempotency')
    .description(
      "check each workload tool's idempotency contract (same key twice, a conflicting key, concurrent calls, a retry after a lost answer, honest hints)",
    )
    .argument(
      '[profile]',
      "the profile whose target and workload tools to check (default: the reference server's drop-after-commit)",
    )
    .addOption(targetOption('--target-command <command>', 'a stdio server, e.g. "node server.js"'))
    .addOption(targetOption('--target-url <url>', 'a Streamable HTTP server'))
    .addOption(targetOption('--mcp-config <file>', 'a server of this mcpServers JSON (with --server)'))
    .option('--server <name>', 'the server of the --mcp-config file')
    .addOption(targetEnvOption())
    .option(
      '--key-arg <TOOL=ARG>',
      'the argument of TOOL that carries its idempotency key (repeatable)',
      (pair: string, earlier: string[] = []) => [...earlier, pair],
    )
    .option('--out <dir>', 'write idempotency.md, idempotency.json and junit.xml here')
    .option('--seed <n>', 'the seed for arguments and keys (default: the profile seed)', parseSeed)
    .option('--allow-non-loopback', 'allow a target that is not on 127.0.0.0/8 or ::1')
    .action(async (profile: string | undefined, flags: IdempotencyFlags) => {
      const { idempotencyCommand } = await import('./idempotency-command.ts');
      process.exitCode = await idempotencyCommand(profile, flags);
    });

  program
    .command('replay')
    .description('rerun the failed profiles of a report.json with the same seed, policy and profile file')
    .argument('<report>', 'a report.json written by faultline run')
    .option('--all', 'rerun every profile, not only the failed ones')
    .option('--out <dir>', 'where to write the replay reports', 'faultline-replay')
    .option('--toxiproxy <backend>', 'network backend: embedded, container, or a Toxiproxy API URL', 'embedded')
    .option('--seed <n>', 'use another seed than the report (to check a fix holds elsewhere)', parseSeed)
    .option('--allow-large', 'replay a profile over the size caps (as the original run was allowed to)')
    .action(async (file: string, flags: ReplayFlags) => {
      const { replayCommand } = await import('./replay-command.ts');
      process.exitCode = await replayCommand(file, flags);
    });

  program
    .command('plan')
    .description('print the fault timeline and the op schedule a run of the profile would follow, without running it')
    .argument('<profile>', 'a profile file')
    .option('--seed <n>', 'the seed to plan with (default: the profile seed)', parseSeed)
    .option('--ops <n>', 'ops to list (default: all in the open model, the first ones in the closed one)', parseCount)
    .option('--json', 'print the plan as JSON')
    .addOption(targetOption('--target-command <command>', 'a stdio server, e.g. "node server.js"'))
    .addOption(targetOption('--target-url <url>', 'a Streamable HTTP server'))
    .addOption(targetOption('--mcp-config <file>', 'a server of this mcpServers JSON (with --server)'))
    .option('--server <name>', 'the server of the --mcp-config file')
    .addOption(targetEnvOption())
    .action(async (file: string, flags: PlanFlags) => {
      const { planCommand } = await import('./plan-command.ts');
      planCommand(file, flags);
    });

  program
    .command('report')
    .description('render junit.xml, report.html, summary.md and trace.jsonl again from a run directory')
    .argument('<run-dir>', 'a directory written by faultline run (report.json, history.jsonl)')
    .option('--out <dir>', 'write the reports here instead of into the run directory')
    .action(async (dir: string, flags: { out?: string }) => {
      const { reportCommand } = await import('./report-command.ts');
      process.exitCode = await reportCommand(dir, flags);
    });

  program
    .command('baseline')
    .description('keep a baseline of known failures and metric values')
    .command('update')
    .description('write a baseline from a run (its failing thresholds become known failures)')
    .argument('<run>', 'a run directory or its report.json')
    .option('--out <file>', 'the baseline file (its tolerances are kept when it exists)', 'faultline-baseline.json')
    .action(async (target: string, flags: { out: string }) => {
      const { baselineUpdate } = await import('./baseline-command.ts');
      process.exitCode = baselineUpdate(target, flags.out);
    });

  program
    .command('kinds')
    .description('list every fault kind (parameters, defaults, units) and every threshold metric')
    .option(
      '--coverage',
      'instead, the areas of MCP server faults each kind injects and each metric detects, and those neither covers',
    )
    .action(async (flags: { coverage?: boolean }) => {
      if (flags.coverage) {
        const { renderCoverage } = await import('./fault-coverage.ts');
        process.stdout.write(renderCoverage());
        return;
      }
      const { renderKinds } = await import('./kinds-command.ts');
      process.stdout.write(renderKinds());
    });

  program
    .command('merge')
    .description('merge the outputs of `faultline run|capacity --shard i/n` into one report, judged once')
    .argument('<dirs...>', '--out folders of the shard runs (each holds shard.json)')
    .option('--out <dir>', 'where to write the merged reports', 'faultline-report')
    .addHelpText(
      'after',
      [
        '',
        'Refuses (exit 2, one line) shards of different runs: other profiles (content hash), faultline versions or',
        'seeds, or a set of shards that overlaps or misses an index. See docs/scale.md.',
        'Capacity shards merge into one review (each level merged, the knee judged once, exit as capacity);',
        'shards of a run in several pairings merge per pairing and the matrix is rebuilt.',
        '',
      ].join('\n'),
    )
    .action(async (dirs: string[], flags: { out: string }) => {
      const { mergeCommand } = await import('./merge-command.ts');
      process.exitCode = await mergeCommand(dirs, flags);
    });

  program
    .command('init')
    .description('write a starter profile (with the line that gives editors completion) that validates and runs')
    .argument('[file]', 'where to write it; never overwritten', 'chaos-profiles/starter.yaml')
    .action(async (file: string) => {
      const { initCommand } = await import('./init-command.ts');
      process.exitCode = initCommand(file);
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
    .addOption(
      new Option(
        '--protocol <era>',
        'which MCP era to answer: legacy (2025-11-25, SDK 1.32), modern (2026-07-28, SDK 2.4), or both (each client in the era it asks for)',
      )
        .choices(Object.keys(SERVER_PROTOCOLS))
        .default('legacy'),
    )
    .addOption(new Option('--dependency-timeout-ms <ms>', 'timeout on dependency calls').argParser(parsePort))
    .option('--admin-port <port>', 'also serve the control API (faults, ledger, reset) on this port', parsePort)
    .option('--admin-token <token>', 'bearer token for the control API (default: a random one, printed)')
    .option('--allow-non-loopback', 'allow binding an address outside 127.0.0.0/8 and ::1')
    .option(
      '--allow-host <name>',
      'also answer requests whose Host names this (repeatable; loopback names always pass)',
      (name: string, names: string[] = []) => [...names, name],
    )
    .action(async (flags: ServerFlags) => {
      const { serverCommand } = await import('./server-command.ts');
      await serverCommand(flags);
    });

  program
    .command('conformance')
    .description(
      "run the official MCP conformance suite's server scenarios against a target, clean and under each fault, as a table",
    )
    .option('--target-url <url>', 'the Streamable HTTP server to test (default: the reference server, started here)')
    .addOption(
      new Option('--protocol <era>', "the reference server's era: legacy, modern or both (as faultline server)")
        .choices(Object.keys(SERVER_PROTOCOLS))
        .default('legacy'),
    )
    .option(
      '--fault <yaml>',
      'a network or edge fault for one pass, as a profile writes it, e.g. "{ seam: network, kind: latency, latency: 300, jitter: 100 }" (repeatable; default: latency 300 ms +-100, half the connections reset, SSE cuts, 429s)',
      (text: string, earlier: string[] = []) => [...earlier, text],
    )
    .option(
      '--scenario <name>',
      "run only this scenario (repeatable; default: the suite's active server scenarios)",
      (name: string, earlier: string[] = []) => [...earlier, name],
    )
    .option(
      '--out <dir>',
      "where to write conformance.md, conformance.json and the suite's own results",
      'faultline-conformance',
    )
    .option('--seed <n>', 'seed of the fault draws', parseSeed, 1)
    .option(
      '--node <path>',
      'a Node 22+ binary to run the suite with (default: this node if 22+, else one installed with it)',
    )
    .option(
      '--tool-dir <dir>',
      'where the suite is installed on first use (default: ~/.cache/faultline-conformance/VERSION)',
    )
    .option(
      '--timeout-s <seconds>',
      'how long one scenario may take under a fault (the clean pass: all of them)',
      parseCount,
      60,
    )
    .option('--fail-on-degrade', 'exit 1 when a scenario passes fewer checks under a fault than clean')
    .option('--allow-non-loopback', 'allow a --target-url that is not on 127.0.0.0/8 or ::1')
    .action(async (flags: ConformanceFlags) => {
      const { conformanceCommand } = await import('./conformance-command.ts');
      process.exitCode = await conformanceCommand(flags);
    });

  program
    .command('record')
    .description(
      'sit between a client and an MCP server and write what passes as a cassette (target kind cassette replays it)',
    )
    .requiredOption('--cassette <file>', 'the cassette to write (JSONL, one message per line)')
    .addOption(new Option('--target-command <command>', 'the server to record: a stdio server, e.g. "node server.js"'))
    .addOption(new Option('--target-url <url>', 'the server to record: a Streamable HTTP server'))
    .addOption(
      new Option('--mcp-config <file>', 'the server to record: a server of this mcpServers JSON (with --server)'),
    )
    .option('--server <name>', 'the server of the --mcp-config file')
    .addOption(targetEnvOption())
    .option(
      '--port <port>',
      "serve the client over Streamable HTTP on 127.0.0.1:PORT (default: over this process's stdio)",
      parsePort,
    )
    .option('--allow-non-loopback', 'allow a --target-url that is not on 127.0.0.0/8 or ::1')
    .addHelpText(
      'after',
      '\nOver stdio, give your client `faultline record --cassette FILE --target-command "..."` as its server command;\nstdout then carries only the session. Ctrl-C (or the client closing stdin) ends the recording.\n',
    )
    .action(async (flags: RecordFlags) => {
      const { recordCommand } = await import('./record-command.ts');
      process.exitCode = await recordCommand(flags);
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
