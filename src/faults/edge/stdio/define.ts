// One MCP-edge fault kind for stdio targets: the profile kind (it tags requests on the client's Transport
// decorator) and, in the same declaration, the server-side writer that spoils the tagged answer.
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { defineFaultKind, type FaultKind } from '../../kind.ts';
import { edgeBase, installRule } from '../common.ts';
import type { StdioOut } from './directive.ts';

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
