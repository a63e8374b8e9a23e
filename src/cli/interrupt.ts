// Ctrl-C: the first SIGINT/SIGTERM aborts the run so it tears everything down (faults removed, server and
// proxies stopped) and writes the reports of what ran; a second one exits at once, and so does a tear-down that
// takes longer than TEARDOWN_LIMIT_MS. Child processes leave on their own when this process is gone (the server
// child when its IPC channel closes, a stdio server when its stdin ends).
import { EXIT } from './user-error.ts';

const TEARDOWN_LIMIT_MS = 10_000;

export function abortOnSignals(): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const onSignal = (name: NodeJS.Signals) => {
    if (controller.signal.aborted) process.exit(EXIT.interrupted);
    process.stderr.write(`\nfaultline: ${name} received, tearing down (again to force)...\n`);
    setTimeout(() => process.exit(EXIT.interrupted), TEARDOWN_LIMIT_MS).unref();
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    signal: controller.signal,
    dispose() {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}
