// The part of an MCP-edge rule every controller keeps, and which requests it touches: apart from common.ts (the
// fault kinds' side) so the controllers, which the fault environment names, import no fault kind.
import { inOpScope, type OpScope } from '../../core/op-scope.ts';
import type { RandomStream } from '../../core/random.ts';

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
