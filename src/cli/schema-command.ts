// faultline schema: the profile's JSON Schema, for editor completion (yaml-language-server and friends).
import type { Command } from 'commander';
import { profileJsonSchema } from '../profile/json-schema.ts';

export function registerSchemaCommand(program: Command): void {
  program
    .command('schema')
    .description('print the JSON Schema of chaos profiles')
    .action(() => {
      process.stdout.write(`${JSON.stringify(profileJsonSchema(), null, 2)}\n`);
    });
}
