// What the client knows of each workload tool (side effects, idempotency key argument, status lookup): the
// profile's mix item first, then the reference server's own traits or, for any other server (kinds stdio and http,
// a url target without the reference admin endpoint), its tool annotations. A tool is side-effecting unless it says
// readOnlyHint (the MCP default for a tool without hints).

import type { ReplayTraits } from '../client/replay.ts';
import { listsOwnTools, type Profile } from '../profile/schema.ts';
import { hintsOf, traitsOf as referenceTraits, type ToolTraits } from '../server/tools/catalog.ts';
import type { ListedTool } from './preflight.ts';

export function toolTraits(
  profile: Profile,
  listed?: ReadonlyMap<string, ListedTool>,
): (tool: string) => ToolTraits & ReplayTraits {
  // A url target with the reference admin endpoint is the reference server run elsewhere: its traits by name.
  const reference = !listsOwnTools(profile.target);
  return (tool) => {
    const hints = reference ? hintsOf(tool) : listed?.get(tool)?.annotations;
    const base: ToolTraits & ReplayTraits = {
      ...(reference ? referenceTraits(tool) : { sideEffecting: hints?.readOnlyHint !== true }),
      ...(hints && { hints }),
      ...(hints?.idempotentHint !== undefined && { idempotent: hints.idempotentHint }),
    };
    const item = profile.workload.mix.find((m) => m.tool === tool);
    // The reference server honours its own key argument; another server's key only as the profile names it.
    const keyArg = item?.idempotencyKeyArg ?? base.idempotencyArg;
    const keyHonoured = keyArg !== undefined && (reference ? keyArg === base.idempotencyArg : true);
    if (!item) return { ...base, ...(keyHonoured && { keyHonoured }) };
    return {
      ...base,
      ...(keyHonoured && { keyHonoured }),
      ...(item.idempotent !== undefined && { idempotent: item.idempotent }),
      ...(item.sideEffect !== undefined && { sideEffecting: item.sideEffect }),
      ...(keyArg !== undefined && { idempotencyArg: keyArg }),
      ...(item.statusTool !== undefined && keyArg !== undefined && { statusLookup: { tool: item.statusTool, keyArg } }),
    };
  };
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
