// What the workload knows about the reference server's tools: their traits (side effects, the idempotency argument,
// how to look up an uncertain effect), read off the tool definitions themselves.

import { argsKey } from '../../core/ledger.ts';
import type { ReplayTraits, ToolHints } from '../../core/tool-declarations.ts';
import { toolHints } from '../tool-listing.ts';
import { MODERN_TOOLS as TOOLS } from './index.ts';
import type { ToolDef, ToolTraits } from './types.ts';

export type { ToolTraits };

function traits({ sideEffecting, idempotencyArg, statusLookup, honoursCancel, runsAsTask }: ToolDef): ToolTraits {
  return {
    sideEffecting,
    ...(runsAsTask && { runsAsTask }),
    ...(idempotencyArg !== undefined && { idempotencyArg }),
    ...(statusLookup !== undefined && { statusLookup }),
    ...(honoursCancel !== undefined && { honoursCancel }),
  };
}

export const REFERENCE_TOOLS: Readonly<Record<string, ToolTraits>> = Object.fromEntries(
  TOOLS.map((tool) => [tool.name, traits(tool)]),
);

/** Traits of a tool the workload names; unknown tools (model mistakes) are treated as reads. */
export function traitsOf(tool: string): ToolTraits {
  return REFERENCE_TOOLS[tool] ?? { sideEffecting: false };
}

/** The annotations the reference server lists for a tool (none for a tool it does not have). */
function hintsOf(tool: string): ToolHints | undefined {
  const def = TOOLS.find((t) => t.name === tool);
  return def && toolHints(def);
}

/** A tool's traits with what the server declares about replays: its annotations, and its own key honoured. */
export function declaredTraitsOf(tool: string): ToolTraits & ReplayTraits {
  return withHints(traitsOf(tool), hintsOf(tool), traitsOf(tool).idempotencyArg !== undefined);
}

/** Traits with the tool's annotations folded in (idempotent as its idempotentHint says). */
export function withHints<T extends ToolTraits>(
  traits: T,
  hints: ToolHints | undefined,
  keyHonoured: boolean,
): T & ReplayTraits {
  return {
    ...traits,
    ...(hints && { hints }),
    ...(hints?.idempotentHint !== undefined && { idempotent: hints.idempotentHint }),
    ...(keyHonoured && { keyHonoured }),
  };
}

/**
 * The argsKey an op's effect carries in the ledger when it calls `tool` with `args`: its distinguishing arguments
 * hashed as the ledger hashes what the dependency received. Undefined for tools without an effect (or unknown).
 */
export function effectArgsKey(tool: string, args: Record<string, unknown>): string | undefined {
  const def = TOOLS.find((t) => t.name === tool);
  return def?.effectArgs ? argsKey(def.effectArgs(args)) : undefined;
}
