// MCP-edge faults on stdio, as they travel: the client's Transport decorator draws (seeded, in the harness) which
// request a fault hits and tags that request's `_meta` with a directive (the kind's directive name and its own
// parameters); the stdio server's output decorator (server/stdio-output.ts) strips the tag and carries it out with
// the kind's `write` on its real stdout. Each kind is one file here (stdio/index.ts lists them).
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { defineFaultKind, type FaultKind } from '../../kind.ts';
import { edgeBase, installRule } from '../common.ts';

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

type BaseKeys = keyof typeof edgeBase;

export interface StdioEdgeFault<S extends z.ZodObject = z.ZodObject> extends FaultKind<S> {
  /** The name the tag carries. */
  directive: string;
  /** Server side: writes the answer to a tagged request, spoiled. */
  write(message: JSONRPCMessage, directive: Omit<z.output<S>, BaseKeys>, out: StdioOut): Promise<void>;
}

/** A stdio edge fault: `params` are its own beside methods and probability. */
export function defineStdioFault<S extends z.ZodRawShape>(def: {
  kind: string;
  directive: string;
  summary: string;
  params: S;
  write(message: JSONRPCMessage, directive: z.output<z.ZodObject<S>>, out: StdioOut): Promise<void>;
}): StdioEdgeFault {
  const params = z.strictObject({ ...edgeBase, ...def.params });
  const kind = defineFaultKind({
    seam: 'edge',
    kind: def.kind,
    summary: def.summary,
    params,
    needs: ['stdio-edge'],
    async apply(p, ctx) {
      const { methods, probability, ...own } = p as { methods: string[]; probability: number };
      return installRule(ctx.env.stdio, ctx, { methods, probability }, { directive: { ...own, kind: def.directive } });
    },
  });
  return { ...kind, directive: def.directive, write: def.write as StdioEdgeFault['write'] } as StdioEdgeFault;
}
