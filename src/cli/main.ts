// faultline: the command line. Exit 0 when every threshold holds, 1 when any fails, 2 for bad input or usage.
import { CommanderError } from 'commander';
import { releaseYoungGeneration } from '../core/heap-keeper.ts';
import { NetworkBackendError } from '../network/backend.ts';
import { ProfileError } from '../profile/profile-error.ts';
import { watchLauncher } from './launcher-watch.ts';
import { buildProgram } from './program.ts';
import { EXIT, UserError } from './user-error.ts';

const program = buildProgram();
// `run` decides in keepHeapSmall whether to keep its young generation small; every other command lets it go.
program.hook('preAction', (_program, command) => {
  if (command.name() !== 'run') releaseYoungGeneration();
});

/** After the launcher is gone, the time the command gets to stop cleanly (as on SIGTERM) before it is ended. */
const ORPHAN_EXIT_MS = 700;

watchLauncher((why) => {
  process.stderr.write(`faultline: ${why}; stopping\n`);
  setTimeout(() => process.exit(EXIT.interrupted), ORPHAN_EXIT_MS).unref();
  process.kill(process.pid, 'SIGTERM');
});

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
    for (const line of (error as Error).message.split('\n')) process.stderr.write(`faultline: ${line}\n`);
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
