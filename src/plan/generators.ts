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
    z.strictObject({ object: z.record(z.string(), generatorSchema) }),
    z.strictObject({ list: z.array(generatorSchema) }),
  ]),
);

/** Draws a value. Strings may use `{op}` (the op's sequence number) to make per-op unique values. */
export function generate(gen: Generator, random: RandomStream, op: number): unknown {
  if (gen === null || typeof gen === 'number' || typeof gen === 'boolean') return gen;
  if (typeof gen === 'string') return gen.replaceAll('{op}', String(op));
  if ('int' in gen) return random.int('arg', gen.int[0], gen.int[1]);
  if ('pick' in gen) return generate(random.pick('arg', gen.pick), random, op);
  if ('text' in gen) return 'x'.repeat(gen.text);
  if ('object' in gen)
    return Object.fromEntries(Object.entries(gen.object).map(([k, v]) => [k, generate(v, random, op)]));
  return gen.list.map((v) => generate(v, random, op));
}
