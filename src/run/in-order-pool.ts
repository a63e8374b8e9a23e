// Runs tasks 0..count-1 up to `jobs` at once, each started in order as one before it ends (a task pool that keeps
// its results in task order, whatever order they end in). A task may hand its place on before it ends (`release`:
// the rest of its work only waits, as a drain does), so the next one starts beside it. A task `alone` says so runs
// with no other in flight: it starts once every task before it has ended, no task after it starts before it ends,
// and its release is ignored. Once the signal aborts, no task starts; an error in one task aborts the signal the
// others were given, waits for them to end (they tear down as on Ctrl-C), then is thrown.

/** What each task that started answered, in task order: all of them unless the signal aborted. */
export async function inOrderPool<T>(
  count: number,
  jobs: number,
  signal: AbortSignal,
  task: (index: number, signal: AbortSignal, release: () => void) => Promise<T>,
  alone: (index: number) => boolean = () => false,
): Promise<T[]> {
  const stop = new AbortController();
  const either = AbortSignal.any([signal, stop.signal]);
  const results: T[] = [];
  let next = 0;
  let failure: { error: unknown } | undefined;
  // Tasks taken and not yet ended (waiting to start included), and the end of the last task taken to run alone.
  const open = new Set<Promise<void>>();
  let lastAlone: Promise<unknown> = Promise.resolve();
  const worker = async () => {
    while (next < count && !either.aborted) {
      const index = next++;
      const solo = alone(index);
      const before = solo ? Promise.all(open) : lastAlone;
      let release = () => {};
      const released = new Promise<void>((resolve) => {
        if (!solo) release = resolve;
      });
      const ended = before.then(async () => {
        if (either.aborted) return;
        try {
          results[index] = await task(index, either, release);
        } catch (error) {
          failure ??= { error };
          stop.abort();
        }
      });
      open.add(ended);
      void ended.then(() => open.delete(ended));
      if (solo) lastAlone = ended;
      await Promise.race([ended, released]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, jobs), count) }, worker));
  // Released tasks still running: nothing is left behind.
  while (open.size > 0) await Promise.all(open);
  if (failure) throw failure.error;
  return results;
}
