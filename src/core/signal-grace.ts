// A Ctrl-C goes to the whole process group at once. A child being spawned at that moment gets it too (it leaves
// the group for its own only after the fork, with the signal already pending), dies, and the failure this causes
// (a write to its stdin: EPIPE) can reach a waiting caller before this process has run its own handler.
import { sleep } from './sleep.ts';

/** How long a signal to the whole process group takes to be handled here, generously (a loaded event loop). */
export const SIGNAL_HANDLING_GRACE_MS = 500;

/** Whether `signal` has aborted or does within the grace: then a failure that came with it is the stop's doing. */
export async function stoppedAlongside(signal: AbortSignal): Promise<boolean> {
  return !(await sleep(SIGNAL_HANDLING_GRACE_MS, signal));
}
