// The target from the command line, for every profile of the run: --target-command "CMD ARGS" (kind stdio),
// --target-url URL (kind http), or --mcp-config FILE --server NAME (either, from the mcpServers JSON clients use).

import { splitCommandLine } from '../profile/command-line.ts';
import { loadMcpServer } from '../profile/mcp-config.ts';
import type { TargetSpec } from '../profile/schema.ts';
import { UserError } from './user-error.ts';

export interface TargetFlags {
  targetCommand?: string;
  targetUrl?: string;
  mcpConfig?: string;
  server?: string;
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
  if (flags.targetCommand !== undefined) {
    let words: string[];
    try {
      words = splitCommandLine(flags.targetCommand);
    } catch (error) {
      throw new UserError(`--target-command: ${(error as Error).message}`);
    }
    if (words.length === 0) throw new UserError('--target-command: expected a command, e.g. "node server.js"');
    return { kind: 'stdio', command: words[0], args: words.slice(1) };
  }
  if (flags.targetUrl !== undefined) return { kind: 'http', url: flags.targetUrl };
  if (flags.mcpConfig !== undefined) {
    if (flags.server === undefined) throw new UserError(`--mcp-config ${flags.mcpConfig}: pass --server NAME too`);
    return loadMcpServer(flags.mcpConfig, flags.server);
  }
  return undefined;
}
