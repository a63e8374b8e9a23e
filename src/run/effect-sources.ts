// Where the effects of a server we did not write come from: the profile's read-back probes (`effects:`), called on
// the run's own session once the workload and the fault windows are over, and/or dependency interception
// (`effects.intercept`, targets/interception.ts). Without either a foreign target reports every effect metric n/a.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Session } from '../client/session.ts';
import type { Plan } from '../plan/plan.ts';
import type { Profile } from '../profile/schema.ts';
import type { EffectSource } from '../targets/effect-source.ts';
import { expandDeep, type PlaceholderValues } from '../targets/placeholders.ts';
import { opEffectValue, ReadBackSource } from './read-back.ts';
import type { Recorder } from './recorder.ts';

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
  /** The run's session: the read-back probes call on it. */
  session: Session,
  ctx: EffectSourceContext,
  interception?: EffectSource,
): EffectSource | undefined {
  if (!profile.effects) return undefined;
  // The schema admits one or the other: both would see each effect twice.
  if (profile.effects.intercept) return interception;
  return new ReadBackSource(profile.effects, ctx.profileFile, async (tool, args) => {
    const { connection } = await session.get();
    const expanded = expandDeep(args, ctx.placeholders, `effects.readBack (${tool}).args`) as Record<string, unknown>;
    const result = await connection.client.callTool({ name: tool, arguments: expanded }, undefined, {
      timeout: PROBE_TIMEOUT_MS,
    });
    return result as CallToolResult;
  });
}

/**
 * The `effects.keys` values of the ops the recorder has (what intercepted requests are attributed by), as strings
 * the way their argsKey hashes them: the plan's ops up to the highest one recorded (op ids are `op-<index>`).
 */
export function opKeyValuesOf(profile: Profile, plan: Plan, recorder: Recorder): string[] {
  const recorded = new Set(recorder.endedOpIds());
  const highest = [...recorded].reduce((max, id) => Math.max(max, Number(/^op-(\d+)$/.exec(id)?.[1] ?? -1)), -1);
  const values: string[] = [];
  for (const op of plan.ops.first(highest + 1)) {
    if (!recorded.has(op.opId)) continue;
    const value = opEffectValue(profile.effects, op.tool, op.args);
    if (value !== undefined) values.push(typeof value === 'string' ? value : JSON.stringify(value));
  }
  return values;
}
