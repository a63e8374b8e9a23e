// The server processes a stdio target spawned, one per connection: how a crash fault kills one, how the target's
// close makes sure none outlives the run, and how a failed first connect is said. Shared by the reference and the
// foreign stdio targets.
import { sleep } from '../core/sleep.ts';

/** How long a child gets to exit on its own once its transport is closed, before it is killed. */
const EXIT_GRACE_MS = 3_000;
/** How long a failed start waits for the server's last stderr lines. */
const STDERR_SETTLE_MS = 500;
/** The stderr excerpt of a start failure: its last lines, at most this long. */
const START_EXCERPT_LINES = 3;
const START_EXCERPT_CHARS = 300;

export interface SpawnedChild {
  transport: { pid?: number | null; exit?: { code: number | null; signal: NodeJS.Signals | null } };
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

/**
 * Why a child's first connect failed, in words: how it exited (code or signal), or the client's error when it did
 * not, and the last lines of its stderr, instead of the SDK's bare "Connection closed" or a write's EPIPE.
 */
export async function startFailureWords(
  child: SpawnedChild | undefined,
  error: unknown,
  stderrTail: string,
): Promise<string> {
  const settled = performance.now() + STDERR_SETTLE_MS;
  if (child) await Promise.race([child.exited, sleep(STDERR_SETTLE_MS, undefined, { unref: true })]);
  // Its stderr can end before the process's exit is known: wait for that too, within the same time.
  while (child && !child.transport.exit && !child.alive && performance.now() < settled) await sleep(10);
  const exit = child?.transport.exit;
  const how = exit
    ? `exited during start-up (${exit.signal ? `signal ${exit.signal}` : `exit code ${exit.code}`})`
    : `did not start (${(error as Error)?.message?.slice(0, 200) ?? String(error)})`;
  const lines = stderrTail
    .trim()
    .split('\n')
    .filter((l) => l.trim() !== '');
  const said = lines.slice(-START_EXCERPT_LINES).join(' | ').slice(-START_EXCERPT_CHARS);
  return `${how}; ${said ? `its stderr ends: ${said}` : 'it wrote nothing on stderr'}`;
}
