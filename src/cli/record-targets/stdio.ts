// A stdio server, spawned per session with everything a run expands; its stderr stays on the user's terminal (a run
// keeps it for the report instead).
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { expandStdioCommand, type StdioCommand } from '../../targets/stdio-command.ts';
import type { RecordTarget } from './recorder.ts';

export const recordStdio: RecordTarget<StdioCommand> = (target, { placeholders }) => {
  const { command, args, env, cwd, maxBufferBytes } = expandStdioCommand(target, placeholders);
  return {
    open: () =>
      new StdioClientTransport({
        command,
        args,
        env: { ...getDefaultEnvironment(), ...env },
        stderr: 'inherit',
        ...(cwd && { cwd }),
        ...(maxBufferBytes && { maxBufferSize: maxBufferBytes }),
      }),
    name: [command, ...args].join(' '),
  };
};
