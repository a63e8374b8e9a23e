// Workload arguments against a tool's inputSchema as the server listed it (JSON Schema, from tools/list): argument
// names when the schema closes its properties, required arguments (the idempotency key argument excepted: the
// client adds it), and every value fixed in the profile against the property's type, enum and const. Generated
// text and nested objects are left to the server.
import type { DocPath } from '../core/profile-error.ts';
import type { Profile } from './schema.ts';
import { fixedValues } from './tool-args.ts';

type Fail = (path: DocPath, problem: string) => never;

/** The JSON Schema parts this checks (anything else in the schema is ignored). */
export interface InputSchema {
  type?: unknown;
  properties?: Record<string, PropertySchema>;
  required?: string[];
  additionalProperties?: unknown;
}

interface PropertySchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
}

export function checkArgsAgainstInputSchema(
  item: Profile['workload']['mix'][number],
  index: number,
  schema: InputSchema,
  fail: Fail,
): void {
  const path: DocPath = ['workload', 'mix', index, 'args'];
  const properties = schema.properties ?? {};
  const names = Object.keys(properties);
  for (const [name, gen] of Object.entries(item.args)) {
    const property = Object.hasOwn(properties, name) ? properties[name] : undefined;
    if (!property) {
      if (schema.additionalProperties === false)
        fail([...path, name], `${item.tool} takes no argument of this name; expected: ${names.join(', ') || 'none'}`);
      continue;
    }
    for (const [value, at] of fixedValues(gen, [...path, name])) {
      const problem = valueProblem(value, property);
      if (problem) fail(at, `not a valid ${name} for ${item.tool}: ${problem}`);
    }
  }
  const missing = (schema.required ?? []).filter(
    (name) => name !== item.idempotencyKeyArg && !Object.hasOwn(item.args, name),
  );
  if (missing.length > 0) fail(path, `${item.tool} needs ${missing.join(', ')}`);
}

function valueProblem(value: unknown, property: PropertySchema): string | undefined {
  if (property.const !== undefined && value !== property.const) return `expected ${JSON.stringify(property.const)}`;
  if (property.enum && !property.enum.includes(value))
    return `expected one of ${property.enum.map((v) => JSON.stringify(v)).join(', ')}`;
  const types = property.type === undefined ? [] : [property.type].flat();
  if (types.length > 0 && !types.some((type) => hasType(value, type))) return `expected ${types.join(' or ')}`;
  return undefined;
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number';
    case 'null':
      return value === null;
    case 'array':
      return Array.isArray(value);
    case 'object':
      return value !== null && typeof value === 'object' && !Array.isArray(value);
    default:
      return typeof value === type;
  }
}
