// A tool's annotations are hints, not guarantees (MCP ToolAnnotations). A hint is a lie when the effects seen
// contradict it: a readOnlyHint tool that made any effect, or an idempotentHint tool whose repeated identical call
// made a second one. Runs (replays of one op) and the idempotency contract suite both judge with this one rule.
import type { ToolHints } from '../core/tool-declarations.ts';

export type HintLie = 'readOnlyHint' | 'idempotentHint';

/**
 * The hint that `effects` (what calls with the same arguments made, counted by the ledger or read-back) contradicts,
 * or undefined when the hints hold or say nothing. `calls` is how many identical calls made them.
 */
export function hintLie(hints: ToolHints | undefined, calls: number, effects: number): HintLie | undefined {
  if (hints?.readOnlyHint === true && effects > 0) return 'readOnlyHint';
  if (hints?.idempotentHint === true && calls > 1 && effects > 1) return 'idempotentHint';
  return undefined;
}
