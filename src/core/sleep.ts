// The one sleep: abortable (Ctrl-C, run teardown, a cancelled request), and optionally unref'd so that a pending
// timer never keeps a process alive.

/** Node's timer limit (about 24.8 days); longer waits, `Infinity` included, are clamped to it. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface SleepOptions {
  /** Do not keep the process alive for this timer (for waits that race something else that does). */
  unref?: boolean;
}

/** Resolves `true` after `ms`, or `false` as soon as `signal` aborts (at once if it already has). */
export function sleep(ms: number, signal?: AbortSignal, options: SleepOptions = {}): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    if (ms <= 0) return resolve(true);
    const timer = setTimeout(() => done(true), Math.min(ms, MAX_TIMER_MS));
    if (options.unref) timer.unref();
    const onAbort = () => done(false);
    signal?.addEventListener('abort', onAbort, { once: true });
    function done(completed: boolean) {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve(completed);
    }
  });
}
