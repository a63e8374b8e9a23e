// Imports a module the user wrote (a client module, a read-back mapper). Node 20 cannot load TypeScript, and a
// `.ts` file in a project whose package.json says "type": "commonjs" would not load as ESM anyway, so a `.ts`,
// `.mts` or `.cts` file is compiled by esbuild to an ES module first. The compiled file is written beside the
// source for the moment of the import, so its package imports resolve from the user's project exactly as the
// source's would (its own relative imports are bundled in), and removed once loaded. Each file loads once.
import { rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

const TYPESCRIPT = /\.[cm]?ts$/;

const loaded = new Map<string, Promise<Record<string, unknown>>>();

/** The module's exports; rejects with one line naming what went wrong (a compile error with its place). */
export function importUserModule(file: string): Promise<Record<string, unknown>> {
  let module = loaded.get(file);
  if (!module) {
    module = TYPESCRIPT.test(file) ? importCompiled(file) : import(pathToFileURL(file).href);
    loaded.set(file, module);
  }
  return module;
}

let compiled = 0;

async function importCompiled(file: string): Promise<Record<string, unknown>> {
  const { build } = await import('esbuild');
  const out = join(dirname(file), `.${basename(file)}.faultline-${process.pid}-${++compiled}.mjs`);
  try {
    await build({
      entryPoints: [file],
      outfile: out,
      bundle: true,
      packages: 'external',
      format: 'esm',
      platform: 'node',
      target: 'node20',
      sourcemap: 'inline',
      logLevel: 'silent',
    });
  } catch (error) {
    const first = (error as { errors?: { text: string; location?: { line: number; column: number } }[] }).errors?.[0];
    if (!first) throw error;
    const at = first.location ? `:${first.location.line}:${first.location.column + 1}` : '';
    throw new Error(`${basename(file)}${at}: ${first.text}`);
  }
  try {
    return await import(pathToFileURL(out).href);
  } finally {
    rmSync(out, { force: true });
  }
}
