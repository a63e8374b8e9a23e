// Every MCP-edge fault kind for stdio targets (one file each): the profile kinds and what the interposer does.
import type { StdioEdgeFault } from './define.ts';
import type { StdioFaultDirective } from './directive.ts';
import { stdioDropMessage } from './drop-message.ts';
import { stdioMalformedLine } from './malformed-line.ts';
import { stdioOversizedLine } from './oversized-line.ts';
import { stdioSlowWrites } from './slow-writes.ts';
import { stdioTruncatedMessage } from './truncated-message.ts';

export const STDIO_EDGE_FAULTS: readonly StdioEdgeFault[] = [
  stdioMalformedLine,
  stdioOversizedLine,
  stdioSlowWrites,
  stdioDropMessage,
  stdioTruncatedMessage,
];

/** The kind a directive names; undefined when unknown. */
export function stdioFaultOf(directive: StdioFaultDirective): StdioEdgeFault | undefined {
  return STDIO_EDGE_FAULTS.find((f) => f.directive === directive.kind);
}
