// Every fault kind a profile can name, by seam and kind.
import { DEPENDENCY_FAULTS } from './dependency/kinds.ts';
import { edgeHeader } from './edge/header.ts';
import { edgeProtocolVersion } from './edge/protocol-version.ts';
import { edgeSseCut } from './edge/sse-cut.ts';
import { edgeStatus } from './edge/status.ts';
import { STDIO_EDGE_FAULTS } from './edge/stdio.ts';
import type { FaultKind, Seam } from './kind.ts';
import { NETWORK_TOXICS, networkDown } from './network/toxic.ts';
import { SERVER_FAULTS } from './server/kinds.ts';

export const FAULTS: readonly FaultKind[] = [
  ...DEPENDENCY_FAULTS,
  ...NETWORK_TOXICS,
  networkDown,
  edgeStatus,
  edgeSseCut,
  edgeHeader,
  edgeProtocolVersion,
  ...SERVER_FAULTS,
  ...STDIO_EDGE_FAULTS,
];

export function findFaultKind(seam: string, kind: string): FaultKind | undefined {
  return FAULTS.find((f) => f.seam === seam && f.kind === kind);
}

export function kindsOfSeam(seam: Seam): string[] {
  return FAULTS.filter((f) => f.seam === seam).map((f) => f.kind);
}
