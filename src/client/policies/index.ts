// The client policies by name (names.ts holds the one list; this table must cover it).

import type { PolicyName } from '../../core/policy-names.ts';
import type { ClientPolicy } from '../policy.ts';
import { naivePolicy } from './naive.ts';

export type { PolicyName } from '../../core/policy-names.ts';

import { nonePolicy } from './none.ts';
import { resilientPolicy } from './resilient.ts';

export const POLICIES: Record<PolicyName, ClientPolicy> = {
  resilient: resilientPolicy,
  naive: naivePolicy,
  none: nonePolicy,
};

export function policyByName(name: PolicyName): ClientPolicy {
  return POLICIES[name];
}
