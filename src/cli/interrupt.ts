// Ctrl-C: the first SIGINT/SIGTERM aborts the run so it tears everything down (faults removed, server and
// proxies stopped); a second one exits at once. Child processes also leave when their IPC channel closes.
export function abortOnSignals(): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const onSignal = (name: NodeJS.Signals) => {
    if (controller.signal.aborted) process.exit(130);
    process.stderr.write(`\nfaultline: ${name} received, tearing down (again to force)...\n`);
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
