// faultline schema: the profile's JSON Schema, for editor completion (yaml-language-server and friends).
import { profileJsonSchema } from '../profile/json-schema.ts';

export function schemaCommand(): void {
  process.stdout.write(`${JSON.stringify(profileJsonSchema(), null, 2)}\n`);
}
