// What every MCP-edge fault shares, over HTTP and over stdio: which requests it touches (methods, probability)
// and how it becomes an active rule on the client side (the fetch middleware or the stdio pipe interposer).
// The controller counts each exchange a rule acted on (its hits, by rule id).
import { z } from 'zod';
import { epochMs } from '../../core/clock.ts';
import type { HitCounter } from '../../core/hit-counter.ts';
import type { AppliedFault, FaultContext } from '../kind.ts';
import type { RuleBase } from './rule-base.ts';

export const edgeBase = {
  methods: z
    .array(z.string())
    .default(['tools/call'])
    .describe('JSON-RPC methods it touches (default: tools/call only; [] for every request)'),
  probability: z.number().min(0).max(1).default(1).describe('share of those requests it hits, 0..1 (seeded draw)'),
};

interface RuleController<R extends RuleBase> {
  add(rule: R): void;
  remove(id: string): void;
  /** Exchanges each rule acted on, by rule id. */
  readonly hits: HitCounter;
}

/** Adds the window's rule (what it does: `action`) to a controller; the rule is gone the moment it is removed. */
export function installRule<R extends RuleBase>(
  controller: RuleController<R>,
  ctx: FaultContext,
  params: { methods: readonly string[]; probability?: number },
  action: Omit<R, keyof RuleBase>,
): AppliedFault {
  controller.add({
    id: ctx.id,
    methods: params.methods,
    probability: params.probability ?? 1,
    random: ctx.random,
    ...(ctx.ops && { ops: ctx.ops }),
    ...action,
  } as R);
  return {
    remove: async () => {
      controller.remove(ctx.id);
      return epochMs();
    },
    hits: async () => controller.hits.of(ctx.id),
  };
}
