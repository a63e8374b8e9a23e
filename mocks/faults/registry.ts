// Every dependency fault kind, listed once by the file that declares it; the zod schema of a fault spec (the
// profile's dependency kinds and the control channel use it) is derived from this list. Adding a fault kind =
// one file plus one line in FAULT_KINDS.
import { z } from 'zod';
import { authExpiry } from './auth-expiry.ts';
import { commitThenDelay } from './commit-then-delay.ts';
import { commitThenFail } from './commit-then-fail.ts';
import { fabricatedSuccess } from './fabricated-success.ts';
import { flap } from './flap.ts';
import { hang } from './hang.ts';
import { latency } from './latency.ts';
import { leakCanary } from './leak-canary.ts';
import { malformed } from './malformed.ts';
import { networkError } from './network-error.ts';
import { oversized } from './oversized.ts';
import { rateLimit } from './rate-limit.ts';
import { status } from './status.ts';
import type { FaultKind } from './types.ts';

export const FAULT_KINDS = [
  latency,
  hang,
  status,
  commitThenDelay,
  commitThenFail,
  rateLimit,
  networkError,
  authExpiry,
  malformed,
  oversized,
  flap,
  leakCanary,
  fabricatedSuccess,
] as const;

const FAULT_KIND_NAMES = FAULT_KINDS.map((f) => f.kind);

const byKind = new Map<string, FaultKind>(FAULT_KINDS.map((f) => [f.kind, f as unknown as FaultKind]));

export function faultKind(kind: string): FaultKind | undefined {
  return byKind.get(kind);
}

/** The kinds' schemas as a tuple, typed one by one (what z.discriminatedUnion wants). */
function schemasOf<T extends readonly [FaultKind, ...FaultKind[]]>(kinds: T) {
  return kinds.map((f) => f.schema) as { -readonly [K in keyof T]: T[K]['schema'] };
}

/** One dependency fault: `{ id, dependency, kind, probability?, ...params }`. */
const dependencyFaultSpecSchema = z.discriminatedUnion('kind', schemasOf(FAULT_KINDS), {
  error: `unknown dependency fault \`kind\`; expected one of: ${FAULT_KIND_NAMES.join(', ')}`,
});

/** The whole active set; ids must be unique. */
export const dependencyFaultSetSchema = z
  .array(dependencyFaultSpecSchema)
  .refine((specs) => new Set(specs.map((s) => s.id)).size === specs.length, 'dependency fault ids must be unique');

export type DependencyFaultSpec = z.infer<typeof dependencyFaultSpecSchema>;
/** What callers may write: defaults (probability, status, form, commit) may be left out. */
export type DependencyFaultSpecInput = z.input<typeof dependencyFaultSpecSchema>;

/** Validates a fault set, throwing one readable error listing every problem. */
export function parseDependencyFaults(input: unknown): DependencyFaultSpec[] {
  const parsed = dependencyFaultSetSchema.safeParse(input);
  if (!parsed.success) throw new Error(`invalid dependency faults:\n${z.prettifyError(parsed.error)}`);
  return parsed.data;
}
