// What every MCP-edge fault shares, over HTTP and over stdio: which requests it touches (methods, probability)
// and how it becomes an active rule on the client side (the fetch middleware or the stdio pipe interposer).
// The controller counts each exchange a rule acted on (its hits, by rule id).
import { z } from 'zod';
import { epochMs } from '../../core/clock.ts';
import type { HitCounter } from '../../core/hit-counter.ts';
import { inOpScope, type OpScope } from '../../core/op-scope.ts';
import type { RandomStream } from '../../core/random.ts';
import type { AppliedFault, FaultContext } from '../kind.ts';

export const edgeBase = {
  methods: z
    .array(z.string())
    .default(['tools/call'])
    .describe('JSON-RPC methods it touches (default: tools/call only; [] for every request)'),
  probability: z.number().min(0).max(1).default(1).describe('share of those requests it hits, 0..1 (seeded draw)'),
};

/** The part of a rule every edge controller keeps. */
export interface RuleBase {
  id: string;
  methods: readonly string[];
  probability: number;
  random: RandomStream;
  /** An op window: only requests of these ops (ruleTouches). */
  ops?: OpScope;
}

/** Whether `rule` touches a request of JSON-RPC `method` with logical key `key` (before its probability draw). */
export function ruleTouches(rule: RuleBase, method: string | undefined, key: string | undefined): boolean {
  if (rule.methods.length > 0 && (method === undefined || !rule.methods.includes(method))) return false;
  return rule.ops === undefined || inOpScope(rule.ops, key);
}

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
