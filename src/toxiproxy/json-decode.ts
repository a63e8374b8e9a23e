// Decoding request bodies the way Go's encoding/json does into Toxiproxy's structs: keys match
// case-insensitively, unknown keys and nulls are ignored, a value of the wrong kind is an error.
import { firstValue } from './json-first-value.ts';

export class DecodeError extends Error {}

export type GoType = 'string' | 'bool' | 'int' | 'int64' | 'float32';
type JsonObject = Record<string, unknown>;

function jsonKind(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'boolean') return 'bool';
  return typeof value;
}

/** Parses a body's first value as json.Decoder.Decode does: what follows it is ignored, a malformed one fails in Go's words. */
export function parseJson(text: string): { value: unknown } | { failure: string } {
  const first = firstValue(text);
  return 'failure' in first ? first : { value: JSON.parse(first.value) };
}

/** The body as an object to decode a struct from; null decodes to nothing. */
export function asStruct(value: unknown, goTypeName: string): JsonObject {
  if (value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new DecodeError(`json: cannot unmarshal ${jsonKind(value)} into Go value of type ${goTypeName}`);
  }
  return value as JsonObject;
}

function lookup(object: JsonObject, key: string): unknown {
  if (key in object) return object[key];
  const lower = key.toLowerCase();
  for (const [name, value] of Object.entries(object)) if (name.toLowerCase() === lower) return value;
  return undefined;
}

/** One field, or undefined when absent or null. `where` names it in errors ("Proxy.name"). */
export function field(object: JsonObject, key: string, type: GoType, where: string): any {
  const value = lookup(object, key);
  if (value === undefined || value === null) return undefined;
  const mismatch = () =>
    new DecodeError(`json: cannot unmarshal ${jsonKind(value)} into Go struct field ${where} of type ${type}`);
  switch (type) {
    case 'string':
      if (typeof value !== 'string') throw mismatch();
      return value;
    case 'bool':
      if (typeof value !== 'boolean') throw mismatch();
      return value;
    case 'float32': {
      if (typeof value !== 'number') throw mismatch();
      const single = Math.fround(value);
      if (!Number.isFinite(single)) {
        throw new DecodeError(`json: cannot unmarshal number ${value} into Go struct field ${where} of type ${type}`);
      }
      return shortestFloat32(single);
    }
    default:
      if (typeof value !== 'number') throw mismatch();
      if (!Number.isSafeInteger(value)) {
        throw new DecodeError(`json: cannot unmarshal number ${value} into Go struct field ${where} of type ${type}`);
      }
      return value;
  }
}

/**
 * A float32 as the shortest decimal that rounds back to it, so it prints as Go prints the float32 (0.33333334 for
 * 1/3, 0 for 5e-324) and compares as that float32 does to within its precision.
 */
function shortestFloat32(single: number): number {
  if (single === 0) return 0;
  for (let digits = 1; digits < 9; digits++) {
    const decimal = Number(single.toPrecision(digits));
    if (Math.fround(decimal) === single) return decimal;
  }
  return Number(single.toPrecision(9));
}

/** A nested object field (attributes); undefined when absent or null. */
export function objectField(
  object: JsonObject,
  key: string,
  where: string,
  goTypeName: string,
): JsonObject | undefined {
  const value = lookup(object, key);
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new DecodeError(
      `json: cannot unmarshal ${jsonKind(value)} into Go struct field ${where} of type ${goTypeName}`,
    );
  }
  return value as JsonObject;
}
