import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FAULTS } from '../../../src/faults/registry.ts';
import { profileJsonSchema } from '../../../src/profile/json-schema.ts';

interface ObjectSchema {
  properties: Record<string, { const?: string }>;
  required?: string[];
  additionalProperties?: unknown;
}

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
    expect(schema.required).toEqual(['name', 'workload']);
  });

  it('has one fault entry per registered kind, with the parameters of that kind and nothing else', () => {
    const schema = profileJsonSchema() as { properties: { faults: { items: { oneOf: { oneOf: ObjectSchema[] }[] } } } };
    const entries = schema.properties.faults.items.oneOf.flatMap((seam) => seam.oneOf);
    expect(entries).toHaveLength(FAULTS.length);
    for (const kind of FAULTS) {
      const entry = entries.find((e) => e.properties.seam.const === kind.seam && e.properties.kind.const === kind.kind);
      expect(entry, `${kind.seam}/${kind.kind}`).toBeDefined();
      expect(Object.keys(entry!.properties)).toEqual([
        'seam',
        'kind',
        'start',
        'stop',
        'fromOp',
        'toOp',
        'firstAttempts',
        'mayNotHit',
        ...Object.keys(kind.params.shape),
      ]);
      expect(entry!.additionalProperties).toBe(false);
      // A window is start (time) or fromOp (ops): neither is required by itself (profile/check.ts wants one).
      expect(entry!.required).toEqual(expect.arrayContaining(['seam', 'kind']));
    }
  });
});
