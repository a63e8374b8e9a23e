// MCP-edge faults on stdio, as they travel: the client-side controller draws (seeded, in the harness) which request
// a fault hits and hands the interposer on that child's pipe a directive (the kind's directive name and its own
// parameters) for the request's id; the interposer carries it out with the kind's writers on the real bytes between
// the client and the child (interposer.ts), so it works on any stdio server. Each kind is one file here
// (define.ts; stdio/index.ts lists them).
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

export interface StdioFaultDirective {
  /** The kind's directive name, e.g. `slow-write`. */
  kind: string;
  [param: string]: unknown;
}

/** One direction of the pipe as a stdio fault's writer sees it (one queue: nothing interleaves mid-line). */
export interface StdioOut {
  /** Raw bytes. */
  write(data: string): Promise<void>;
  /** The message as the SDK frames it normally (one JSON line). */
  send(message: JSONRPCMessage): Promise<void>;
}
