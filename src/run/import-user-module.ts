// Imports a module the user wrote (a client module, a read-back mapper). The compiled package has no TypeScript
// loader of its own (tsx is not a runtime dependency), so a `.ts` file that Node cannot load gets tsx registered
// when it can be found (a development checkout, or tsx installed beside Faultline), and otherwise one line that says
// what to do.
import { pathToFileURL } from 'node:url';

const TYPESCRIPT = /\.[cm]?ts$/;

export async function importUserModule(file: string): Promise<Record<string, unknown>> {
  const url = pathToFileURL(file).href;
  try {
    return await import(url);
  } catch (error) {
    if ((error as { code?: string }).code !== 'ERR_UNKNOWN_FILE_EXTENSION' || !TYPESCRIPT.test(file)) throw error;
  }
  const loader = 'tsx/esm/api'; // not a literal: the compiled bundle must not try to include it
  const tsx = (await import(loader).catch(() => undefined)) as { register?: () => unknown } | undefined;
  if (!tsx?.register)
    throw new Error('a TypeScript module needs a loader: install tsx (npm i -D tsx), or compile it to .js');
  tsx.register();
  // A failed import stays failed for its URL: the query makes it a new one.
  return await import(`${url}?with-tsx`);
}
