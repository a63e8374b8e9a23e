// The profile schema as JSON Schema (input side: what a person writes, before defaults and transforms). A time field
// shows both of its forms, milliseconds or a duration text, so an editor accepts "2s" where it accepts 2000.
import { z } from 'zod';
import { DURATION_HINT, DURATION_PATTERN, isDuration } from '../core/duration.ts';
import { profileSchema } from './schema.ts';

/** Keys that describe the field as a whole, kept beside the anyOf of its forms. */
const FIELD_KEYS = new Set(['description', 'default']);

export function profileJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(profileSchema, {
      io: 'input',
      unrepresentable: 'any',
      override: ({ zodSchema, jsonSchema }) => {
        // zod drops the default of anything holding a transform on the input side; a duration's default is a
        // number of milliseconds, which is valid input too, so it stays in view.
        const written = writtenDefault(zodSchema);
        if (written !== undefined) jsonSchema.default = written;
        if (!isDuration(zodSchema)) return;
        const ms: Record<string, unknown> = {};
        for (const [key, value] of Object.entries(jsonSchema)) {
          if (FIELD_KEYS.has(key)) continue;
          ms[key] = value;
          delete (jsonSchema as Record<string, unknown>)[key];
        }
        jsonSchema.anyOf = [ms, { type: 'string', pattern: DURATION_PATTERN, description: DURATION_HINT }];
      },
    }),
    title: 'Faultline chaos profile',
  };
}

/** The default a field shows: its own, or (a duration) its milliseconds schema's. */
function writtenDefault(schema: z.core.$ZodType): unknown {
  const def = schema._zod.def as { type: string; defaultValue?: unknown; out?: z.core.$ZodType };
  if (def.type === 'default') return JSON.parse(JSON.stringify(def.defaultValue));
  return isDuration(schema) && def.out ? writtenDefault(def.out) : undefined;
}
