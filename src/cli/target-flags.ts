// The target from the command line, for every profile of the run: --target-command "CMD ARGS" (kind stdio),
// --target-url URL (kind http), or --mcp-config FILE --server NAME (either, from the mcpServers JSON clients use).
// --target-env KEY=VALUE (repeatable) adds to a stdio server's environment, over an --mcp-config entry's `env`.

import { resolve } from 'node:path';
import type { RunInvocation } from '../measure/run-report.ts';
import { splitCommandLine } from '../profile/command-line.ts';
import { loadMcpServer } from '../profile/mcp-config.ts';
import type { TargetSpec } from '../profile/schema.ts';
import { UserError } from './user-error.ts';

export interface TargetFlags {
  targetCommand?: string;
  targetUrl?: string;
  mcpConfig?: string;
  server?: string;
  /** --target-env KEY=VALUE, each as given (the value may hold `${env:NAME}`, expanded when the server starts). */
  targetEnv?: string[];
  /** Where a stdio server of these flags runs (replay: the original run's directory; default: the current one). */
  targetCwd?: string;
}

/** The target the flags name, or undefined when they name none (each profile keeps its own). */
export function targetFromFlags(flags: TargetFlags): TargetSpec | undefined {
  const given = [
    flags.targetCommand !== undefined && '--target-command',
    flags.targetUrl !== undefined && '--target-url',
    flags.mcpConfig !== undefined && '--mcp-config',
  ].filter((f): f is string => f !== false);
  if (given.length > 1)
    throw new UserError(`${given.join(' and ')}: expected one way to name the target, not ${given.length}`);
  if (flags.server !== undefined && flags.mcpConfig === undefined)
    throw new UserError('--server names a server of an --mcp-config file; pass --mcp-config FILE too');
  const env = envFromFlags(flags);
  if (env && flags.targetCommand === undefined && flags.mcpConfig === undefined)
    throw new UserError(
      '--target-env sets the environment of a stdio server: pass --target-command or --mcp-config too',
    );
  const spec = namedTarget(flags);
  if (!env || !spec) return spec;
  if (spec.kind !== 'stdio')
    throw new UserError(
      `--target-env: server ${flags.server} of ${flags.mcpConfig} is a url server; expected a stdio one`,
    );
  return { ...spec, env: { ...spec.env, ...env } };
}

/** `--target-env KEY=VALUE` flags as a record; undefined when none was given. */
function envFromFlags(flags: TargetFlags): Record<string, string> | undefined {
  if (!flags.targetEnv?.length) return undefined;
  const env: Record<string, string> = {};
  for (const pair of flags.targetEnv) {
    const at = pair.indexOf('=');
    const key = at < 0 ? pair : pair.slice(0, at);
    if (at < 0 || !ENV_NAME.test(key))
      throw new UserError(`--target-env ${pair}: expected KEY=VALUE with KEY an environment variable name`);
    env[key] = pair.slice(at + 1);
  }
  return env;
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function namedTarget(flags: TargetFlags): TargetSpec | undefined {
  if (flags.targetCommand !== undefined) {
    let words: string[];
    try {
      words = splitCommandLine(flags.targetCommand);
    } catch (error) {
      throw new UserError(`--target-command: ${(error as Error).message}`);
    }
    if (words.length === 0) throw new UserError('--target-command: expected a command, e.g. "node server.js"');
    return { kind: 'stdio', command: words[0], args: words.slice(1), ...(flags.targetCwd && { cwd: flags.targetCwd }) };
  }
  if (flags.targetUrl !== undefined) return { kind: 'http', url: flags.targetUrl };
  if (flags.mcpConfig !== undefined) {
    if (flags.server === undefined) throw new UserError(`--mcp-config ${flags.mcpConfig}: pass --server NAME too`);
    const spec = loadMcpServer(flags.mcpConfig, flags.server);
    if (spec.kind === 'stdio' && flags.targetCwd) return { ...spec, cwd: resolve(flags.targetCwd, spec.cwd ?? '.') };
    return spec;
  }
  return undefined;
}

/** What report.json keeps of the flags (and --client-module, --allow-non-loopback) for replay; undefined when none was given. */
export function invocationOf(
  flags: TargetFlags & { clientModule?: string; allowNonLoopback?: boolean },
): RunInvocation | undefined {
  const { targetCommand, targetUrl, mcpConfig, server, targetEnv, clientModule } = flags;
  const allowNonLoopback = flags.allowNonLoopback === true;
  if ([targetCommand, targetUrl, mcpConfig, clientModule].every((f) => f === undefined) && !allowNonLoopback)
    return undefined;
  return {
    ...(targetCommand !== undefined && { targetCommand }),
    ...(targetUrl !== undefined && { targetUrl }),
    ...(mcpConfig !== undefined && { mcpConfig: resolve(mcpConfig) }),
    ...(server !== undefined && { server }),
    ...(targetEnv?.length && { targetEnv }),
    ...(clientModule !== undefined && { clientModule: resolve(clientModule) }),
    ...(allowNonLoopback && { allowNonLoopback: true as const }),
    cwd: flags.targetCwd ?? process.cwd(),
  };
}
