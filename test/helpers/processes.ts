// Whether a process runs, by its id (signal 0 checks without sending anything).
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
