// A foreign stdio server's command line, environment and cwd with `${tmpdir}` and `${env:NAME}` expanded: what a run
// spawns (run/target-starts/stdio.ts) and what `faultline record` spawns are the same process.
import type { ForeignStdioSpec } from './foreign-stdio-target.ts';
import { expandPlaceholders, expandRecord, type PlaceholderValues } from './placeholders.ts';

/** A profile's or the target flags' stdio target, as written. */
export interface StdioCommand {
  command: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  maxBufferBytes?: number;
}

export function expandStdioCommand(target: StdioCommand, placeholders: PlaceholderValues): ForeignStdioSpec {
  return {
    command: expandPlaceholders(target.command, placeholders, 'target.command'),
    args: (target.args ?? []).map((arg, i) => expandPlaceholders(arg, placeholders, `target.args[${i}]`)),
    env: expandRecord(target.env ?? {}, placeholders, 'target.env'),
    cwd: target.cwd && expandPlaceholders(target.cwd, placeholders, 'target.cwd'),
    maxBufferBytes: target.maxBufferBytes,
  };
}
