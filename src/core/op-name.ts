// The op id the workload gives each op number (op-00012), and the number back from an id spelled so. There is one
// spelling per number, so a number stands for its id exactly where the id is that spelling.

export const opName = (index: number): string => `op-${String(index).padStart(5, '0')}`;

const PLANNED = /^op-(\d+)$/;

/** The op number of an id in the workload's spelling (one an Int32 holds), or -1 for any other id. */
export function opNumber(opId: string): number {
  const m = PLANNED.exec(opId);
  if (!m) return -1;
  const n = Number(m[1]);
  return n <= 0x7fffffff && opName(n) === opId ? n : -1;
}
