import { type ChildProcess, spawn } from 'node:child_process';

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
