// A sleep that an abort (Ctrl-C, run teardown) cuts short.
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted || ms <= 0) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** Sleeps until an absolute epoch time. */
export function sleepUntil(epoch: number, now: number, signal?: AbortSignal): Promise<void> {
  return sleep(epoch - now, signal);
}
