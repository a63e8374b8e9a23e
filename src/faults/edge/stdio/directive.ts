// MCP-edge faults on stdio, as they travel: the client's Transport decorator draws (seeded, in the harness) which
// request a fault hits and tags that request's `_meta` with a directive (the kind's directive name and its own
// parameters); the stdio server's output decorator (server/stdio-output.ts) strips the tag and carries it out with
// the kind's `write` on its real stdout. Each kind is one file here (define.ts; stdio/index.ts lists them).
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

export const STDIO_FAULT_META = 'faultline/stdio-fault';

export interface StdioFaultDirective {
  /** The kind's directive name, e.g. `slow-write`. */
  kind: string;
  [param: string]: unknown;
}

/** The server's stdout as a stdio fault's writer sees it (one queue: nothing interleaves mid-line). */
export interface StdioOut {
  /** Raw bytes on stdout. */
  write(data: string): Promise<void>;
  /** The message as the transport sends it normally (one JSON line). */
  send(message: JSONRPCMessage): Promise<void>;
}
