// The client policies by name: `resilient` (as the seeds advise) and the negative controls `naive` and `none`.
// The one list: the profile schema, the CLI and the policy table derive from it. Kept free of imports so the
// profile schema can read it without loading the client.
export const POLICY_NAMES = ['resilient', 'naive', 'none'] as const;

export type PolicyName = (typeof POLICY_NAMES)[number];
