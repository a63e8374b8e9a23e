// A faultline whose launcher is gone must not run on as an orphan holding ports. `npx faultline` is npm, then
// `sh -c faultline`, then this process: a SIGTERM to npm alone (a CI cancel, `timeout` without its process group)
// kills npm and sh but never reaches us, and a SIGKILL to npm leaves sh waiting for us. So this process watches
// its launcher: its parent, and above that every ancestor whose command line names faultline, npm or npx (the
// launch chain), and stops itself when one of them is gone. On Linux the chain is read from /proc; elsewhere
// only the parent is watched (its pid changes when it dies).
import { readFileSync } from 'node:fs';

interface Ancestor {
  pid: number;
  /** Start time from /proc/PID/stat: a reused pid has another. */
  startTime: string;
}

const LAUNCHER = /\b(faultline|npm|npx)\b/;

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

/** Calls `onGone` once when the launcher is gone; checks every `intervalMs` without keeping the process alive. */
export function watchLauncher(onGone: (why: string) => void, intervalMs = 200): () => void {
  const parent = process.ppid;
  const chain = launchChain();
  const timer = setInterval(() => {
    const gone = process.ppid !== parent ? { pid: parent } : chain.find((a) => !alive(a));
    if (!gone) return;
    clearInterval(timer);
    onGone(`its launcher (pid ${gone.pid}) is gone`);
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
