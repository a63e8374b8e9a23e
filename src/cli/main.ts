// faultline: the command line. Exit 0 when every threshold holds, 1 when any fails, 2 for bad input or usage.
import { Command, CommanderError } from 'commander';
import { NetworkBackendError } from '../network/backend.ts';
import { ProfileError } from '../profile/profile-error.ts';
import { registerLimitsCommand } from './limits-command.ts';
import { registerMergeCommand } from './merge-command.ts';
import { registerReplayCommand } from './replay-command.ts';
import { registerRunCommand } from './run-command.ts';
import { registerSchemaCommand } from './schema-command.ts';
import { registerServerCommand } from './server-command.ts';
import { registerToxiproxyCommand } from './toxiproxy-command.ts';
import { EXIT, UserError } from './user-error.ts';
import { registerValidateCommand } from './validate-command.ts';

const program = new Command('faultline')
  .description('Chaos harness for MCP tool calls: real faults, a real client and server, measured.')
  .version('0.1.0')
  .showHelpAfterError('(run with --help for usage)')
  .exitOverride();

registerRunCommand(program);
registerValidateCommand(program);
registerReplayCommand(program);
registerSchemaCommand(program);
registerServerCommand(program);
registerToxiproxyCommand(program);
registerLimitsCommand(program);
registerMergeCommand(program);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  process.exitCode = exitCodeFor(error);
}

function exitCodeFor(error: unknown): number {
  if (error instanceof CommanderError) {
    // --help and --version end with exit code 0; everything else commander rejects is a usage error.
    return error.exitCode === 0 ? EXIT.ok : EXIT.badInput;
  }
  if (
    error instanceof UserError ||
    error instanceof ProfileError ||
    error instanceof NetworkBackendError ||
    isUserFacing(error)
  ) {
    process.stderr.write(`faultline: ${(error as Error).message}\n`);
    return EXIT.badInput;
  }
  process.stderr.write(
    `faultline: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  return 70;
}

/** Errors from other modules that are meant for the user (a missing container runtime, a bad target URL). */
function isUserFacing(error: unknown): boolean {
  return error instanceof Error && (error as { userFacing?: boolean }).userFacing === true;
}
