// What every MCP-edge fault shares, over HTTP and over stdio: which requests it touches (methods, probability)
// and how it becomes an active rule on the client side (the fetch middleware or the stdio Transport decorator).
import { z } from 'zod';
import type { RandomStream } from '../../core/random.ts';
import type { FaultContext, RemoveFault } from '../kind.ts';

export const edgeBase = {
  methods: z
    .array(z.string())
    .default(['tools/call'])
    .describe('JSON-RPC methods it touches (default: tools/call only; [] for every request)'),
  probability: z.number().min(0).max(1).default(1).describe('share of those requests it hits, 0..1 (seeded draw)'),
};

/** The part of a rule every edge controller keeps. */
interface RuleBase {
  id: string;
  methods: readonly string[];
  probability: number;
  random: RandomStream;
}

interface RuleController<R extends RuleBase> {
  add(rule: R): void;
  remove(id: string): void;
}

/** Adds the window's rule (what it does: `action`) to a controller and returns how to take it away. */
export function installRule<R extends RuleBase>(
  controller: RuleController<R>,
  ctx: FaultContext,
  params: { methods: readonly string[]; probability?: number },
  action: Omit<R, keyof RuleBase>,
): RemoveFault {
  controller.add({
    id: ctx.id,
    methods: params.methods,
    probability: params.probability ?? 1,
    random: ctx.random,
    ...action,
  } as R);
  return async () => controller.remove(ctx.id);
}
