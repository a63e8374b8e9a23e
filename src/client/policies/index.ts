// The client policies by name.
import type { ClientPolicy } from '../policy.ts';
import { naivePolicy } from './naive.ts';
import { nonePolicy } from './none.ts';
import { resilientPolicy } from './resilient.ts';

export const POLICIES = { resilient: resilientPolicy, naive: naivePolicy, none: nonePolicy } as const;
export type PolicyName = keyof typeof POLICIES;

export function policyByName(name: PolicyName): ClientPolicy {
  return POLICIES[name];
}
