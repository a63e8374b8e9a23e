import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { profileJsonSchema } from '../../../src/profile/json-schema.ts';

describe('exported JSON Schema', () => {
  it('schema/profile.schema.json is up to date (regenerate with: npx faultline schema > schema/profile.schema.json)', () => {
    const committed = JSON.parse(readFileSync(new URL('../../../schema/profile.schema.json', import.meta.url), 'utf8'));
    expect(committed).toEqual(profileJsonSchema());
  });

  it('describes the profile keys editors should complete', () => {
    const schema = profileJsonSchema() as { properties: Record<string, unknown>; required: string[] };
    expect(Object.keys(schema.properties)).toEqual(
      expect.arrayContaining(['name', 'workload', 'faults', 'expect', 'client']),
    );
    expect(schema.required).toEqual(expect.arrayContaining(['name', 'description', 'workload']));
  });
});
