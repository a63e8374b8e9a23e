// Argument generators for the workload: each op's arguments are drawn from the profile's templates with the
// op's own seeded stream, so the same seed gives the same arguments.
import { z } from 'zod';
import type { RandomStream } from '../core/random.ts';

const literal = z.union([z.string(), z.number(), z.boolean(), z.null()]);

export type Generator =
  | string
  | number
  | boolean
  | null
  | { int: [number, number] }
  | { pick: Generator[] }
  | { text: number }
  | { unique: string }
  | { object: Record<string, Generator> }
  | { list: Generator[] };

export const generatorSchema: z.ZodType<Generator> = z.lazy(() =>
  z.union([
    literal,
    z.strictObject({ int: z.tuple([z.number().int(), z.number().int()]) }),
    z.strictObject({ pick: z.array(generatorSchema).min(1) }),
    z.strictObject({
      text: z
        .number()
        .int()
        .nonnegative()
        .max(64 * 1024 * 1024),
    }),
    z.strictObject({
      unique: z
        .string()
        .max(200)
        .describe(
          'a value no other op of the run has: the prefix, the op number and a seeded tag, e.g. "ent-7-3fa9c2"',
        ),
    }),
    z.strictObject({ object: z.record(z.string(), generatorSchema) }),
    z.strictObject({ list: z.array(generatorSchema) }),
  ]),
);

/**
 * Draws a value. Strings may use `{op}` (the op's sequence number) to make per-op unique values; `{unique: prefix}`
 * adds a tag drawn from the seed, so runs with other seeds do not reuse the values (effects can be attributed to
 * their op by these values on a server that keeps state between runs).
 */
export function generate(gen: Generator, random: RandomStream, op: number): unknown {
  if (gen === null || typeof gen === 'number' || typeof gen === 'boolean') return gen;
  if (typeof gen === 'string') return gen.replaceAll('{op}', String(op));
  if ('int' in gen) return random.int('arg', gen.int[0], gen.int[1]);
  if ('pick' in gen) return generate(random.pick('arg', gen.pick), random, op);
  if ('text' in gen) return 'x'.repeat(gen.text);
  if ('unique' in gen) return `${gen.unique}${op}-${random.int('unique', 0, 0xffffff).toString(16).padStart(6, '0')}`;
  if ('object' in gen)
    return Object.fromEntries(Object.entries(gen.object).map(([k, v]) => [k, generate(v, random, op)]));
  return gen.list.map((v) => generate(v, random, op));
}
