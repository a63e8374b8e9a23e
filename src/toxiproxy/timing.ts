// Sub-millisecond waits for toxics. Node timers fire on a cached, integer-ms loop clock, so they can be up to
// ~1 ms early or late; a latency toxic that must land within 0.5 ms of its target sleeps on a timer for the bulk
// and spends the last stretch on setImmediate turns against performance.now().
import { performance } from 'node:perf_hooks';

export const now = (): number => performance.now();

/** How close to the deadline the timer hands over to setImmediate polling: the timer may fire up to ~1 ms early
 * (floored loop clock); a longer busy window made the tail worse on a loaded 2-core machine (bench runs). */
const POLL_WINDOW_MS = 1;

/** Calls `fire` at `deadline` (a performance.now() value). Returns a cancel function. */
export function scheduleAt(deadline: number, fire: () => void): () => void {
  let timer: NodeJS.Timeout | undefined;
  let immediate: NodeJS.Immediate | undefined;
  let cancelled = false;
  const tick = () => {
    timer = undefined;
    immediate = undefined;
    if (cancelled) return;
    const left = deadline - performance.now();
    if (left <= 0) fire();
    else if (left > POLL_WINDOW_MS) timer = setTimeout(tick, left - POLL_WINDOW_MS);
    else immediate = setImmediate(tick);
  };
  tick();
  return () => {
    cancelled = true;
    if (timer) clearTimeout(timer);
    if (immediate) clearImmediate(immediate);
  };
}
