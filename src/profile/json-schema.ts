// The profile schema as JSON Schema (input side: what a person writes, before defaults and transforms).
import { z } from 'zod';
import { profileSchema } from './schema.ts';

export function profileJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(profileSchema, { io: 'input', unrepresentable: 'any' }),
    title: 'Faultline chaos profile',
  };
}
