// One MCP-edge fault kind for stdio targets: the profile kind (its rule picks requests on the client's side) and,
// in the same declaration, what the interposer on the pipe does to a picked exchange: the answer the child writes
// on its stdout, spoiled on its way to the client's reader (`answer`), or the request on its way to the child's
// stdin (`request`). Either one left out passes its message through unchanged.
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { FaultArea } from '../../../core/fault-areas.ts';
import { defineFaultKind, type FaultKind } from '../../kind.ts';
import { edgeBase, installRule } from '../common.ts';
import type { StdioOut } from './directive.ts';

type BaseKeys = keyof typeof edgeBase;

type Writer<P> = (message: JSONRPCMessage, directive: P, out: StdioOut) => Promise<void>;

export interface StdioEdgeFault<S extends z.ZodObject = z.ZodObject> extends FaultKind<S> {
  /** The name the directive carries. */
  directive: string;
  /** The child's answer to a picked request, on its way to the client's reader. */
  answer: Writer<Omit<z.output<S>, BaseKeys>>;
  /** A picked request, on its way to the child's stdin. */
  request: Writer<Omit<z.output<S>, BaseKeys>>;
}

const passThrough: Writer<unknown> = (message, _d, out) => out.send(message);

/** A stdio edge fault: `params` are its own beside methods and probability. */
export function defineStdioFault<S extends z.ZodRawShape>(def: {
  kind: string;
  directive: string;
  summary: string;
  covers: readonly FaultArea[];
  params: S;
  answer?: Writer<z.output<z.ZodObject<S>>>;
  request?: Writer<z.output<z.ZodObject<S>>>;
}): StdioEdgeFault {
  const params = z.strictObject({ ...edgeBase, ...def.params });
  const kind = defineFaultKind({
    seam: 'edge',
    kind: def.kind,
    summary: def.summary,
    params,
    needs: ['stdio-edge'],
    covers: def.covers,
    async apply(p, ctx) {
      const { methods, probability, ...own } = p as { methods: string[]; probability: number };
      return installRule(ctx.env.stdio, ctx, { methods, probability }, { directive: { ...own, kind: def.directive } });
    },
  });
  return {
    ...kind,
    directive: def.directive,
    answer: (def.answer ?? passThrough) as StdioEdgeFault['answer'],
    request: (def.request ?? passThrough) as StdioEdgeFault['request'],
  } as StdioEdgeFault;
}
