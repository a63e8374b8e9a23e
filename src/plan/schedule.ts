// The workload schedule: which tool each op calls with which arguments, whether the model's first call of it
// carries a mistake, and (open model) when it starts. Op i is drawn from the seed by its index: the tool from
// the workload stream in index order, arguments and mistake from the op's own child streams.

import { opName } from '../core/op-name.ts';
import type { RandomStream } from '../core/random.ts';
import { injectMistake, type Mistaken } from '../model/mistakes.ts';
import { generate } from '../profile/generators.ts';
import type { Profile } from '../profile/schema.ts';

export interface PlannedOp {
  index: number;
  opId: string;
  tool: string;
  args: Record<string, unknown>;
  /** Start offset from the workload start (open model only). */
  atMs?: number;
  /** The model's first call of this op gets this wrong (tool name or arguments), when the profile plans mistakes. */
  mistake?: Mistaken;
}

/** Op `index`; call in index order (the tool draws share one stream). */
export function planOp(profile: Profile, random: RandomStream, index: number): PlannedOp {
  const { mix, mistakes, rate } = profile.workload;
  const total = mix.reduce((sum, item) => sum + item.weight, 0);
  let roll = random.float('tool') * total;
  let item = mix[mix.length - 1];
  for (const candidate of mix) {
    roll -= candidate.weight;
    if (roll < 0) {
      item = candidate;
      break;
    }
  }
  const argRandom = random.child(`op${index}`);
  const args = Object.fromEntries(Object.entries(item.args).map(([k, g]) => [k, generate(g, argRandom, index)]));
  const opId = opName(index);
  const mistakeRandom = random.child(`mistake/${opId}`);
  const mistake =
    mistakes && mistakeRandom.chance('mistake', mistakes.share)
      ? injectMistake(item.tool, args, mistakes.kinds, mistakeRandom)
      : undefined;
  return {
    index,
    opId,
    tool: item.tool,
    args,
    ...(rate ? { atMs: Math.round((index * 1000) / rate) } : {}),
    ...(mistake && { mistake }),
  };
}
