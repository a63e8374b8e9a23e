// Runs tasks 0..count-1 up to `jobs` at once, each started in order as one before it ends (a task pool that keeps
// its results in task order, whatever order they end in). A task `alone` says so runs with no other in flight: it
// starts once every task before it has ended, and no task after it starts before it ends. Once the signal aborts,
// no task starts; an error in one task aborts the signal the others were given, waits for them to end (they tear
// down as on Ctrl-C), then is thrown.

/** What each task that started answered, in task order: all of them unless the signal aborted. */
export async function inOrderPool<T>(
  count: number,
  jobs: number,
  signal: AbortSignal,
  task: (index: number, signal: AbortSignal) => Promise<T>,
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
      const ended = before.then(async () => {
        if (either.aborted) return;
        try {
          results[index] = await task(index, either);
        } catch (error) {
          failure ??= { error };
          stop.abort();
        }
      });
      open.add(ended);
      if (solo) lastAlone = ended;
      await ended;
      open.delete(ended);
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, jobs), count) }, worker));
  if (failure) throw failure.error;
  return results;
}
