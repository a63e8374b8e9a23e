// faultline: the command line. Exit 0 when every threshold holds, 1 when any fails, 2 for bad input or usage.
import { CommanderError } from 'commander';
import { SIGNAL_HANDLING_GRACE_MS } from '../core/signal-grace.ts';
import { isUserFacing } from '../core/user-facing.ts';
import { endQuietlyOnClosedPipe } from './closed-pipe.ts';
import { watchLauncher } from './launcher-watch.ts';
import { buildProgram } from './program.ts';
import { EXIT, UserError } from './user-error.ts';

endQuietlyOnClosedPipe(process.stdout);
endQuietlyOnClosedPipe(process.stderr);

const program = buildProgram();

/** After the launcher is gone, the time the command gets to stop cleanly (as on SIGTERM) before it is ended. */
const ORPHAN_EXIT_MS = 700;

/** Whether this process itself got SIGINT or SIGTERM (then a signal its launching shell holds is the same one). */
let signalled = false;
// Passive: it only takes note, so bin/faultline.js still exits 130 on a signal no command handles.
const noteSignal = Object.assign(
  () => {
    signalled = true;
  },
  { passive: true },
);
process.on('SIGINT', noteSignal);
process.on('SIGTERM', noteSignal);

watchLauncher({
  onGone(why) {
    process.stderr.write(`faultline: ${why}; stopping\n`);
    setTimeout(() => process.exit(EXIT.interrupted), ORPHAN_EXIT_MS).unref();
    process.kill(process.pid, 'SIGTERM');
  },
  onHeldSignal() {
    // Ctrl-C reaches the shell and this process at once: wait a moment for ours to be handled, then pass on only
    // a signal that did not come here too.
    setTimeout(() => {
      if (signalled) return;
      process.stderr.write('faultline: its launcher got SIGINT; stopping\n');
      process.kill(process.pid, 'SIGINT');
    }, SIGNAL_HANDLING_GRACE_MS).unref();
  },
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
  if (error instanceof UserError || isUserFacing(error)) {
    for (const line of (error as Error).message.split('\n')) process.stderr.write(`faultline: ${line}\n`);
    return EXIT.badInput;
  }
  process.stderr.write(
    `faultline: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  return 70;
}
