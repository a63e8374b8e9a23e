// The workload schedule: which tool each op calls with which arguments, and (open model) when it starts.
// Drawn up front from the seed, so a replay issues the same ops in the same order.

import type { RandomStream } from '../core/random.ts';
import type { Profile } from '../profile/schema.ts';
import { generate } from './generators.ts';

export interface PlannedOp {
  index: number;
  opId: string;
  tool: string;
  args: Record<string, unknown>;
  /** Start offset from the workload start (open model only). */
  atMs?: number;
}

/** Ops for the whole duration (open model) or a generous upper bound of them (closed model, drawn lazily). */
export function planOp(profile: Profile, random: RandomStream, index: number): PlannedOp {
  const mix = profile.workload.mix;
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
  const rate = profile.workload.rate;
  return {
    index,
    opId: `op-${String(index).padStart(5, '0')}`,
    tool: item.tool,
    args,
    ...(rate ? { atMs: Math.round((index * 1000) / rate) } : {}),
  };
}

/** Number of ops an open-model profile starts within its duration. */
export function openModelOpCount(profile: Profile): number {
  return profile.workload.rate ? Math.ceil((profile.duration * profile.workload.rate) / 1000) : 0;
}
