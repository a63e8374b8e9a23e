// Decoding request bodies the way Go's encoding/json does into Toxiproxy's structs: keys match
// case-insensitively, unknown keys and nulls are ignored, a value of the wrong kind is an error.
export class DecodeError extends Error {}

export type GoType = 'string' | 'bool' | 'int' | 'int64' | 'float32';
type JsonObject = Record<string, unknown>;

function jsonKind(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'boolean') return 'bool';
  return typeof value;
}

/** Parses a body; like json.Decoder.Decode, an empty body fails with "EOF". */
export function parseJson(text: string): { value: unknown } | { failure: string } {
  if (!/\S/.test(text)) return { failure: 'EOF' };
  try {
    return { value: JSON.parse(text) };
  } catch (error) {
    return { failure: (error as Error).message };
  }
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
    case 'float32':
      if (typeof value !== 'number') throw mismatch();
      return value;
    default:
      if (typeof value !== 'number') throw mismatch();
      if (!Number.isSafeInteger(value)) {
        throw new DecodeError(`json: cannot unmarshal number ${value} into Go struct field ${where} of type ${type}`);
      }
      return value;
  }
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
