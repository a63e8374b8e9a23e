// A faultline whose launcher is gone must not run on as an orphan holding ports. `npx faultline` is npm, then
// `sh -c faultline`, then this process: a SIGTERM to npm alone (a CI cancel, `timeout` without its process group)
// kills npm and sh but never reaches us, and a SIGKILL to npm leaves sh waiting for us. So this process watches
// its launcher: its parent, and above that every ancestor whose command line names faultline, npm or npx (the
// launch chain), and stops itself when one of them is gone. On Linux the chain is read from /proc; elsewhere
// only the parent is watched (its pid changes when it dies).
//
// A SIGINT to npm alone is passed on to `sh -c`, and there it stays: dash catches SIGINT when run with -c and waits
// for its child before acting on it, so the signal never reaches us. A shell waiting on us wakes only for a signal
// (or for our own stop and continue), so on Linux a wake-up of that shell, seen in its context-switch count, is
// that signal: `onHeldSignal` is called, and the caller decides whether it had the signal itself.
import { readFileSync } from 'node:fs';

interface Ancestor {
  pid: number;
  /** Start time from /proc/PID/stat: a reused pid has another. */
  startTime: string;
}

const LAUNCHER = /\b(faultline|npm|npx)\b/;
/** A shell running our command line (`sh -c 'faultline' run ...`, as npm starts a package's bin). */
const SHELL = /^(\S*\/)?(sh|dash|bash) -c /;

/** State, parent pid and start time of a process (undefined when it is gone or /proc is not there). */
function stat(pid: number): { state: string; ppid: number; startTime: string } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so read after the last ')'.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0], ppid: Number(fields[1]), startTime: fields[19] };
  } catch {
    return undefined;
  }
}

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

/** How often a process went to sleep by itself (undefined when it is gone or /proc is not there). */
function sleeps(pid: number): number | undefined {
  try {
    const match = /^voluntary_ctxt_switches:\s*(\d+)$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** The parent, then every ancestor above it that is part of the launch chain. */
function launchChain(): Ancestor[] {
  const chain: Ancestor[] = [];
  for (let pid = process.ppid; pid > 1; ) {
    const s = stat(pid);
    if (!s) break;
    if (chain.length > 0 && !LAUNCHER.test(commandLine(pid))) break;
    chain.push({ pid, startTime: s.startTime });
    pid = s.ppid;
  }
  return chain;
}

function alive(ancestor: Ancestor): boolean {
  const s = stat(ancestor.pid);
  return s !== undefined && s.startTime === ancestor.startTime && s.state !== 'Z' && s.state !== 'X';
}

export interface LauncherEvents {
  /** Once, when the launcher is gone. */
  onGone(why: string): void;
  /** Each time the launching shell woke up while waiting on us: it was sent a signal it holds (SIGINT). */
  onHeldSignal(): void;
}

/** Watches the launcher every `intervalMs` without keeping the process alive. */
export function watchLauncher(events: LauncherEvents, intervalMs = 200): () => void {
  const parent = process.ppid;
  const chain = launchChain();
  const shell = SHELL.test(commandLine(parent)) && LAUNCHER.test(commandLine(parent)) ? parent : undefined;
  let shellSleeps = shell === undefined ? undefined : sleeps(shell);
  const timer = setInterval(() => {
    const gone = process.ppid !== parent ? { pid: parent } : chain.find((a) => !alive(a));
    if (gone) {
      clearInterval(timer);
      events.onGone(`its launcher (pid ${gone.pid}) is gone`);
      return;
    }
    const now = shell === undefined ? undefined : sleeps(shell);
    if (now !== undefined && shellSleeps !== undefined && now > shellSleeps) events.onHeldSignal();
    shellSleeps = now;
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
