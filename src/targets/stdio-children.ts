// The server processes a stdio target spawned, one per connection: how a crash fault kills one and how the
// target's close makes sure none outlives the run. Shared by the reference and the foreign stdio targets.
import { sleep } from '../core/sleep.ts';

/** How long a child gets to exit on its own once its transport is closed, before it is killed. */
const EXIT_GRACE_MS = 3_000;

export interface SpawnedChild {
  transport: { pid?: number | null };
  /** Known once the child said so (the transport forgets its process on close). */
  pid?: number;
  alive: boolean;
  exited: Promise<void>;
}

/**
 * Sends `signal` to the child's whole process group (the transport spawns each child as the leader of its own
 * group), so a server started through a wrapper (`npx server`, a shell script) dies with the wrapper; to the
 * process alone when it has no group. False when nothing got the signal (already gone).
 */
export function signalGroup(pid: number, signal: NodeJS.Signals): boolean {
  for (const target of [-pid, pid]) {
    try {
      process.kill(target, signal);
      return true;
    } catch {
      // no such group (or process): try the next, else it is gone
    }
  }
  return false;
}

/** Sends `signal` to the child and everything it started; false when it had no process or was already gone. */
export function signalChild(child: SpawnedChild | undefined, signal: NodeJS.Signals): boolean {
  const pid = child?.pid ?? child?.transport.pid ?? undefined;
  return pid !== undefined && signalGroup(pid, signal);
}

/** Waits for every child to exit (the session closes their transports first), killing any that lingers. */
export async function stopChildren(children: readonly SpawnedChild[]): Promise<void> {
  await Promise.all(
    children.map(async (child) => {
      if (!child.alive) return;
      await Promise.race([child.exited, sleep(EXIT_GRACE_MS, undefined, { unref: true })]);
      if (child.alive && signalChild(child, 'SIGKILL')) {
        await Promise.race([child.exited, sleep(1000, undefined, { unref: true })]);
      }
    }),
  );
}
