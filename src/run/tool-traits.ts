// What the client knows of each workload tool (side effects, idempotency key argument, status lookup, and what it
// declares about replays): the profile's mix item first, then the reference server's own traits or, for any other
// server (kinds stdio and http, a url target without the reference admin endpoint), its tool annotations. A tool is
// side-effecting unless it says readOnlyHint (the MCP default for a tool without hints).

import type { ReplayTraits, ToolHints } from '../core/tool-declarations.ts';
import { listsOwnTools, type Profile } from '../profile/schema.ts';
import { declaredTraitsOf, type ToolTraits, withHints } from '../server/tools/catalog.ts';
import type { ListedTool } from './preflight.ts';

export function toolTraits(
  profile: Profile,
  listed?: ReadonlyMap<string, ListedTool>,
): (tool: string) => ToolTraits & ReplayTraits {
  // A url target with the reference admin endpoint is the reference server run elsewhere: its traits by name.
  const reference = !listsOwnTools(profile.target);
  return (tool) => {
    const item = profile.workload.mix.find((m) => m.tool === tool);
    const base = reference
      ? declaredTraitsOf(tool)
      : foreignTraits(listed?.get(tool)?.annotations, item?.idempotencyKeyArg !== undefined);
    if (!item) return base;
    const { keyHonoured, ...rest } = base;
    const keyArg = item.idempotencyKeyArg ?? base.idempotencyArg;
    // The reference server honours its own key argument only.
    const honoured = reference ? keyArg !== undefined && keyArg === base.idempotencyArg : keyHonoured;
    return {
      ...rest,
      ...(honoured && { keyHonoured: true }),
      ...(item.idempotent !== undefined && { idempotent: item.idempotent }),
      ...(item.sideEffect !== undefined && { sideEffecting: item.sideEffect }),
      ...(keyArg !== undefined && { idempotencyArg: keyArg }),
      ...(item.statusTool !== undefined && keyArg !== undefined && { statusLookup: { tool: item.statusTool, keyArg } }),
    };
  };
}

/** Another server's tool: side-effecting unless it says readOnlyHint; its key honoured only as the profile names it. */
function foreignTraits(hints: ToolHints | undefined, keyNamed: boolean): ToolTraits & ReplayTraits {
  return withHints({ sideEffecting: hints?.readOnlyHint !== true }, hints, keyNamed);
}

/** One line per workload tool for the report: what the client took it to be, and why. */
export function traitNotes(profile: Profile, listed: ReadonlyMap<string, ListedTool>): string[] {
  const traits = toolTraits(profile, listed);
  return [...new Set(profile.workload.mix.map((m) => m.tool))].map((tool) => {
    const t = traits(tool);
    const item = profile.workload.mix.find((m) => m.tool === tool)!;
    const hints = listed.get(tool)?.annotations;
    const why =
      item.sideEffect !== undefined
        ? 'sideEffect in the profile'
        : hints
          ? `annotations ${JSON.stringify(hints)}`
          : 'no annotations';
    return `tool ${tool}: ${t.sideEffecting ? 'side-effecting' : 'read-only'} (${why})${t.idempotencyArg ? `, idempotency key in ${t.idempotencyArg}` : ''}${t.statusLookup ? `, status by ${t.statusLookup.tool}` : ''}`;
  });
}
