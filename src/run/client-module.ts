// Loads a client module (--client-module FILE or the profile's client.module): its default export (or a named
// createClient) is the factory that builds the user's client. A file that is missing or exports no function is one
// line, exit 2.
import { existsSync } from 'node:fs';
import { type ClientFactory, ClientModuleError } from '../client/module-client.ts';
import { importUserModule } from './import-user-module.ts';

export async function loadClientModule(file: string): Promise<ClientFactory> {
  if (!existsSync(file)) throw new ClientModuleError(`client module ${file}: no such file`);
  let mod: { default?: unknown; createClient?: unknown };
  try {
    mod = await importUserModule(file);
  } catch (error) {
    throw new ClientModuleError(`client module ${file}: cannot load it (${(error as Error).message.split('\n')[0]})`);
  }
  const factory = typeof mod.default === 'function' ? mod.default : mod.createClient;
  if (typeof factory !== 'function')
    throw new ClientModuleError(
      `client module ${file}: expected a default export (or createClient) function ({ newTransport }) => client`,
    );
  return factory as ClientFactory;
}
