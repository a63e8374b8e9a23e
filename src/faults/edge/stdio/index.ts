// Every MCP-edge fault kind for stdio targets (one file each): the profile kinds and the server's writers.
import type { StdioEdgeFault } from './define.ts';
import { STDIO_FAULT_META, type StdioFaultDirective } from './directive.ts';
import { stdioMalformedLine } from './malformed-line.ts';
import { stdioOversizedLine } from './oversized-line.ts';
import { stdioSlowWrites } from './slow-writes.ts';

export const STDIO_EDGE_FAULTS: readonly StdioEdgeFault[] = [stdioMalformedLine, stdioOversizedLine, stdioSlowWrites];

/** The kind a tagged request's directive names, with the directive; undefined when untagged or unknown. */
export function stdioFaultOf(meta: unknown): { fault: StdioEdgeFault; directive: StdioFaultDirective } | undefined {
  const directive = (meta as Record<string, unknown> | undefined)?.[STDIO_FAULT_META] as
    | StdioFaultDirective
    | undefined;
  const fault = STDIO_EDGE_FAULTS.find((f) => f.directive === directive?.kind);
  return fault && directive ? { fault, directive } : undefined;
}
