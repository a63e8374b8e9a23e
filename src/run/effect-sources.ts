// Where the effects of a server we did not write come from. None is built in yet: a foreign target without a source
// reports every effect metric n/a. Read-back probes and dependency interception attach theirs here.
import type { Profile } from '../profile/schema.ts';
import type { EffectSource } from '../targets/effect-source.ts';
import type { Environment } from './environment.ts';

/** The effect source for a foreign target's run, or undefined when nothing can see its effects. */
export function effectSourceFor(_profile: Profile, _env: Environment): EffectSource | undefined {
  return undefined;
}
