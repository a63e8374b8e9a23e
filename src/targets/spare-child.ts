// How a reference server child is forked, and one forked ahead of need. Loading the server's modules costs about
// 0.3 s of a quiet core per child, and the default suite starts one per profile run. A suite forks the spare while
// a run's workload goes (or while it drains, where the next run does not set up during that drain), and the next
// run's server takes it instead of forking its own, so no run's set-up waits for that boot. A waiting spare holds no reference on the event loop (it never keeps the harness alive) and exits with it
// (its IPC channel closes) or when dropped.
import { type ChildProcess, fork } from 'node:child_process';
import type { Socket } from 'node:net';
import { serverEntry } from './entry.ts';

let spare: ChildProcess | undefined;
/** Spares forked and taken since this process started (a suite that used every spare it forked has them equal). */
const tally = { forked: 0, taken: 0 };

/** A new reference server child, its output piped (kept as a tail by its handle) or inherited. */
export function forkServerChild(inheritOutput = false): ChildProcess {
  const [module, ...args] = serverEntry('child-main');
  return fork(module, args, {
    execPath: process.execPath,
    stdio: inheritOutput ? ['ignore', 'inherit', 'inherit', 'ipc'] : ['ignore', 'pipe', 'pipe', 'ipc'],
  });
}

/** Forks the spare, unless one is already waiting. */
export function warmSpareChild(): void {
  if (waiting(spare)) return;
  spare = forkServerChild();
  tally.forked += 1;
  holdsLoop(spare, false);
}

/** The waiting spare, now the caller's, or undefined when none waits (one that died is cleared away). */
export function takeSpareChild(): ChildProcess | undefined {
  const child = spare;
  spare = undefined;
  if (!child) return undefined;
  if (!waiting(child)) {
    child.kill('SIGKILL');
    return undefined;
  }
  holdsLoop(child, true);
  tally.taken += 1;
  return child;
}

export function spareChildTally(): Readonly<typeof tally> {
  return { ...tally };
}

/** Kills a waiting spare (the suite ended); resolves when it has exited. */
export async function dropSpareChild(): Promise<void> {
  const child = spare;
  spare = undefined;
  if (!running(child)) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // Held again while it dies: an unreferenced child's exit would not keep the loop alive to be awaited.
  holdsLoop(child, true);
  child.kill('SIGKILL');
  await exited;
}

/** The child has not exited (nor been ended by a signal). */
export function running(child: ChildProcess | undefined): child is ChildProcess {
  return !!child && child.exitCode === null && child.signalCode === null;
}

/** The child runs and its IPC channel is open: it can still take a `start` message. */
export function waiting(child: ChildProcess | undefined): boolean {
  return running(child) && child.connected;
}

/** The child, its IPC channel and its output pipes keep the event loop alive, or do not. */
function holdsLoop(child: ChildProcess, hold: boolean): void {
  const handles = [child, child.channel, child.stdout as Socket | null, child.stderr as Socket | null];
  for (const handle of handles) {
    if (hold) handle?.ref();
    else handle?.unref();
  }
}
