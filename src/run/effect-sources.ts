// Where the effects of a server we did not write come from: the profile's read-back probes (`effects:`), called on
// the run's own session once the workload and the fault windows are over. Without them a foreign target reports
// every effect metric n/a.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Profile } from '../profile/schema.ts';
import { expandDeep, type PlaceholderValues } from '../targets/placeholders.ts';
import type { Environment } from './environment.ts';
import { ReadBackSource } from './read-back.ts';

/** A probe's call timeout: a read of the server's state, after the faults are gone. */
const PROBE_TIMEOUT_MS = 10_000;

export interface EffectSourceContext {
  /** The profile's file: probe modules resolve against it. */
  profileFile: string;
  placeholders: PlaceholderValues;
}

/** The effect source for a foreign target's run, or undefined when nothing can see its effects. */
export function effectSourceFor(
  profile: Profile,
  env: Environment,
  ctx: EffectSourceContext,
): ReadBackSource | undefined {
  if (!profile.effects) return undefined;
  return new ReadBackSource(profile.effects, ctx.profileFile, async (tool, args) => {
    const { connection } = await env.session.get();
    const expanded = expandDeep(args, ctx.placeholders, `effects.readBack (${tool}).args`) as Record<string, unknown>;
    const result = await connection.client.callTool({ name: tool, arguments: expanded }, undefined, {
      timeout: PROBE_TIMEOUT_MS,
    });
    return result as CallToolResult;
  });
}
