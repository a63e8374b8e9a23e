// Server-behaviour faults as the control channel carries them: the active set is a list of specs
// `{ id, kind, ...params }`, one per fault window, replaced whole by setBehaviour. Each kind (its parameters and
// its hooks on the SDK transport) is one file in behaviours/; this schema is derived from that list. When kinds
// repeat, the spec listed last wins; a spec whose id is new to the server "opens" (one-shot actions such as
// evicting every session happen then).
import { z } from 'zod';
import { BEHAVIOURS } from './behaviours/index.ts';

const specSchemas = BEHAVIOURS.map((b) =>
  b.params.extend({ id: z.string().min(1), kind: z.literal(b.kind) }),
) as unknown as [z.ZodObject, ...z.ZodObject[]];

/** One window's behaviour: its id (the fault window's), its kind and the kind's parameters. */
export interface BehaviourSpec {
  id: string;
  kind: string;
  [param: string]: unknown;
}

const behaviourSpecSchema = z.discriminatedUnion('kind', specSchemas, {
  error: `unknown server behaviour \`kind\`; expected one of: ${BEHAVIOURS.map((b) => b.kind).join(', ')}`,
}) as unknown as z.ZodType<BehaviourSpec, BehaviourSpec>;

export const behaviourSetSchema = z
  .array(behaviourSpecSchema)
  .refine((specs) => new Set(specs.map((s) => s.id)).size === specs.length, 'server behaviour ids must be unique');

/** Counts of what the behaviour faults did since the server process started, by counter name. */
export type BehaviourStats = Record<string, number>;

/** Counters of the server itself (the behaviours add theirs). */
const SERVER_COUNTERS = ['sessionsEvicted'];

export function emptyBehaviourStats(): BehaviourStats {
  return Object.fromEntries([...SERVER_COUNTERS, ...BEHAVIOURS.flatMap((b) => b.counters)].map((c) => [c, 0]));
}
