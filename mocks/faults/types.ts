// The one interface every dependency fault kind implements. A fault wraps the dependency's resolver: it can
// answer instead of it (fail before the effect), delay it, or call it and then spoil the answer (effect happened).
// A kind's schema carries its one-line summary (`.describe()` on the object) and each parameter's unit.
import { z } from 'zod';
import type { FaultArea } from '../../src/core/fault-areas.ts';
import type { RandomStream } from '../../src/core/random.ts';
import { DEPENDENCIES, type DependencyName } from '../apis/types.ts';

/** Fields every fault spec has, whatever its kind. */
export const baseFaultSpec = z.object({
  id: z.string({ error: 'a fault needs an `id` (a short unique name)' }).min(1, 'a fault `id` must not be empty'),
  dependency: z
    .enum([...DEPENDENCIES, '*'], {
      error: `\`dependency\` must be one of: ${[...DEPENDENCIES, '*'].join(', ')}`,
    })
    .describe('the dependency API it hits (* for every one)'),
  method: z
    .enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'], { error: '`method` must be GET, POST, PUT, PATCH or DELETE' })
    .optional()
    .describe('only requests with this HTTP method (e.g. POST: the write path); default every method'),
  probability: z
    .number()
    .min(0, '`probability` must be between 0 and 1')
    .max(1, '`probability` must be between 0 and 1')
    .optional()
    .describe('share of matching requests it hits, 0..1 (seeded draw); default 1'),
  ops: z
    .strictObject({
      from: z.number().int().nonnegative(),
      to: z.number().int().nonnegative(),
      firstAttempts: z.number().int().positive().optional(),
    })
    .optional()
    .describe("only requests of these ops (by op index, from the request's trace id; src/core/op-scope.ts)"),
});

export interface FaultContext {
  request: Request;
  /** The reference server's API, or 'intercepted' for a foreign server's dependency (mocks/intercept-preload.ts). */
  dependency: DependencyName | 'intercepted';
  /** This fault's seeded stream for this request (keyed by op, attempt and request when known); draws are logged. */
  random: RandomStream;
  /** State private to this fault instance; it lives until the fault is removed or its spec changes. */
  state: Record<string, unknown>;
  /** When this fault was activated (epoch ms). */
  activatedAtMs: number;
  /**
   * Counts this request as hit by the fault: call it where the fault acts (answers, delays, spoils). A request the
   * fault lets through untouched is not a hit.
   */
  hit(): void;
}

export type Next = () => Promise<Response>;

export interface FaultKind<S extends z.ZodObject = z.ZodObject> {
  kind: string;
  /** One line: what the fault does (the schema's description). */
  summary: string;
  /** The areas of MCP server faults it injects into (core/fault-areas.ts). */
  covers: readonly FaultArea[];
  schema: S;
  apply(spec: z.infer<S>, ctx: FaultContext, next: Next): Promise<Response>;
}

export function defineFault<S extends z.ZodObject<{ kind: z.ZodLiteral<string> } & z.ZodRawShape>>(
  schema: S,
  covers: readonly FaultArea[],
  apply: (spec: z.infer<S>, ctx: FaultContext, next: Next) => Promise<Response>,
): FaultKind<S> {
  return { kind: String(schema.shape.kind.value), summary: schema.description ?? '', covers, schema, apply };
}

/** A whole number >= 0 (or > 0) with a message naming the field, for readable profile errors. */
export function wholeNumber(label: string, min = 0) {
  const message = `${label} must be a whole number >= ${min}`;
  return z.number({ error: message }).int({ error: message }).min(min, { error: message });
}
