import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

// Whether a process runs, by its id (signal 0 checks without sending anything).
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * A node process that keeps one core busy until it is killed, or until this process is gone: every few million
 * turns it checks its parent, so a test runner killed outright (SIGKILL leaves no time to kill children) does
 * not leave it spinning.
 */
export function cpuBurner(): ChildProcess {
  const loop = `const parent = ${process.pid}; for (let i = 1; ; i++) if (i % 5e6 === 0 && process.ppid !== parent) process.exit();`;
  return spawn(process.execPath, ['-e', loop], { stdio: 'ignore' });
}

export interface Marked {
  pid: number;
  args: string;
}

/** Live processes carrying the marker in their environment or arguments (zombies carry neither). */
export function marked(mark: string): Marked[] {
  const found: Marked[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ');
      const env = readFileSync(`/proc/${entry}/environ`, 'utf8');
      if (args.includes(mark) || env.includes(mark)) found.push({ pid: Number(entry), args });
    } catch {} // gone meanwhile
  }
  return found;
}

/**
 * The Node processes in `ps -o pid=,comm=` output: server children are Node; ps itself (listing runs one) and
 * esbuild's service (the TypeScript loader's, started and ended on its own schedule) are not.
 */
export const pidsIn = (psOutput: string): number[] =>
  psOutput
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter(([id, command]) => id !== '' && command === 'node')
    .map(([id]) => Number(id));

/** The Node processes `pid` started that still run. */
export const childrenOf = (pid: number): number[] =>
  pidsIn(execFileSync('ps', ['-o', 'pid=,comm=', '--ppid', String(pid)], { encoding: 'utf8' }));
