// The keys a profile may write at a place in it, read from the profile's JSON Schema: at a union (a target, a
// fault entry) the branch whose constants (kind, seam) the written value matches. For "did you mean" on an
// unknown key, so the list comes from the one schema and is never restated.

import type { DocPath } from '../core/profile-error.ts';
import { profileJsonSchema } from './json-schema.ts';

type JsonSchema = {
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  const?: unknown;
  $ref?: string;
};

let profileSchema: JsonSchema | undefined;

/** The keys the profile schema allows at `path`, given what the profile wrote (`value`, the whole document). */
export function knownKeys(value: unknown, path: DocPath): string[] {
  profileSchema ??= profileJsonSchema() as JsonSchema;
  return keysAt(profileSchema, value, path);
}

function keysAt(root: JsonSchema, value: unknown, path: DocPath): string[] {
  const defs = (root as { $defs?: Record<string, JsonSchema> }).$defs ?? {};
  const deref = (node: JsonSchema | undefined) => (node?.$ref ? defs[node.$ref.replace('#/$defs/', '')] : node);
  /** The branch of a union the written value takes: every constant it names matches. */
  const branch = (node: JsonSchema | undefined, written: unknown): JsonSchema | undefined => {
    const resolved = deref(node);
    const options = resolved?.oneOf ?? resolved?.anyOf;
    if (!options) return resolved;
    const fits = options.map((o) => branch(o, written)).find((o) => o?.properties && matches(o, written));
    return fits ?? options.map((o) => branch(o, written)).find((o) => o?.properties);
  };
  let node = branch(root, value);
  let written = value;
  for (const part of path) {
    written = (written as Record<string | number, unknown> | undefined)?.[part];
    node = branch(typeof part === 'number' ? node?.items : node?.properties?.[part], written);
  }
  return Object.keys(node?.properties ?? {});
}

function matches(schema: JsonSchema, written: unknown): boolean {
  if (written === null || typeof written !== 'object') return false;
  return Object.entries(schema.properties ?? {}).every(
    ([key, property]) => property.const === undefined || (written as Record<string, unknown>)[key] === property.const,
  );
}
