// Workload arguments against the reference tools' input schemas (what the server will validate them with): argument
// names, required arguments, and every value fixed in the profile (literals, pick choices, the ends of an int
// range). Generated text and nested objects are left to the run. Targets the harness did not write (url, stdio,
// http) are checked by the run's preflight against the schemas their tools/list gives.
import type { z } from 'zod';
import { didYouMean } from '../core/did-you-mean.ts';
import type { DocPath } from '../core/profile-error.ts';
import { REFERENCE_TOOLS } from '../server/tools/catalog.ts';
import { MODERN_TOOLS as TOOLS } from '../server/tools/index.ts';
import type { Generator } from './generators.ts';
import { isReferenceKind, type Profile } from './schema.ts';

/** Reports a problem; the check goes on to find the rest. */
type Fail = (path: DocPath, problem: string) => void;

export function checkToolArgs(profile: Profile, fail: Fail): void {
  if (!isReferenceKind(profile.target.kind)) return;
  profile.workload.mix.forEach((item, i) => {
    const tool = TOOLS.find((t) => t.name === item.tool);
    if (!tool) return;
    const shape = tool.input.shape as Record<string, z.ZodType>;
    const path: DocPath = ['workload', 'mix', i, 'args'];
    for (const [name, gen] of Object.entries(item.args)) {
      const field = Object.hasOwn(shape, name) ? shape[name] : undefined;
      if (!field) {
        fail(
          [...path, name],
          `${item.tool} takes no argument of this name${didYouMean(name, Object.keys(shape))}; expected: ${Object.keys(shape).join(', ')}`,
        );
        continue;
      }
      for (const [value, at] of fixedValues(gen, [...path, name])) {
        const parsed = field.safeParse(value);
        if (!parsed.success) fail(at, `not a valid ${name} for ${item.tool}: ${parsed.error.issues[0].message}`);
      }
    }
    // The client adds the idempotency key itself.
    const added = REFERENCE_TOOLS[item.tool]?.idempotencyArg;
    const missing = Object.keys(shape).filter(
      (name) => name !== added && !Object.hasOwn(item.args, name) && !shape[name].safeParse(undefined).success,
    );
    if (missing.length > 0) fail(path, `${item.tool} needs ${missing.join(', ')}`);
  });
}

/** The values a generator can only ever produce as written, with where they are. `{op}` stands for an op number. */
export function fixedValues(gen: Generator, path: DocPath): [unknown, DocPath][] {
  if (gen === null || typeof gen !== 'object')
    return [[typeof gen === 'string' ? gen.replaceAll('{op}', '1') : gen, path]];
  if ('pick' in gen) return gen.pick.flatMap((g, i) => fixedValues(g, [...path, 'pick', i]));
  if ('int' in gen) return gen.int.map((n, i) => [n, [...path, 'int', i]] as [unknown, DocPath]);
  return [];
}
