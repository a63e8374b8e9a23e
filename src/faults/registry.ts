// Every fault kind a profile can name, by seam and kind.
import { DEPENDENCY_FAULTS } from './dependency.ts';
import type { FaultKind, Seam } from './kind.ts';

export const FAULTS: readonly FaultKind[] = [...DEPENDENCY_FAULTS];

export function findFaultKind(seam: string, kind: string): FaultKind | undefined {
  return FAULTS.find((f) => f.seam === seam && f.kind === kind);
}

export function kindsOfSeam(seam: Seam): string[] {
  return FAULTS.filter((f) => f.seam === seam).map((f) => f.kind);
}
