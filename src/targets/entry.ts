// How to start a server process fast. Loading the server's TypeScript through tsx costs about a second per
// process (module resolution and loader hooks for every file); a profile starts at least one, so the suite
// pays it dozens of times. One esbuild bundle per source version starts in about a third of that. The bundle
// is cached under node_modules/.cache and rebuilt when any source file changes; if it cannot be built,
// the process runs through tsx as before. The compiled package runs the bundles `npm run build` made in dist/bin/.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type * as Esbuild from 'esbuild';
import { COMPILED, PACKAGE_ROOT as ROOT } from '../core/package-root.ts';

const RUN_TS = join(ROOT, 'bin/run-ts.js');
/** esbuild, loaded when a bundle is checked or built: the compiled package never needs it. */
const esbuild = (): typeof Esbuild => createRequire(import.meta.url)('esbuild');
const CACHE = join(ROOT, 'node_modules/.cache/faultline');

/** How Faultline bundles for Node, here and in `npm run build` (scripts/build.ts). */
export const NODE_BUNDLE = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Bundled CommonJS dependencies call require(); give the ESM bundle one.
  banner: {
    js: "import { createRequire as __faultlineRequire } from 'node:module'; const require = __faultlineRequire(import.meta.url);",
  },
} as const satisfies Esbuild.BuildOptions;

export type ServerEntry = 'child-main' | 'stdio-main' | 'cassette-main';

/** Module and arguments for `fork`/`spawn` with process.execPath. */
export function serverEntry(name: ServerEntry): string[] {
  if (COMPILED) return [join(ROOT, 'dist/bin', `${name}.js`)];
  const source = join(ROOT, 'src/server', `${name}.ts`);
  if (process.env.FAULTLINE_NO_BUNDLE) return [RUN_TS, source];
  try {
    return [bundled(name, source)];
  } catch {
    return [RUN_TS, source];
  }
}

/**
 * The dependency interception preload as one plain ESM file: it runs inside a foreign Node server, which has no
 * tsx loader, so it is always a bundle (dist/bin in the compiled package).
 */
export function preloadEntry(): string {
  if (COMPILED) return join(ROOT, 'dist/bin/intercept-preload.js');
  return bundled('intercept-preload', join(ROOT, 'mocks/intercept-preload.ts'));
}

function bundled(name: string, source: string): string {
  const bundle = join(CACHE, `${name}-${sourceVersion()}.mjs`);
  if (!existsSync(bundle)) build(source, bundle);
  return bundle;
}

function build(source: string, bundle: string): void {
  mkdirSync(CACHE, { recursive: true });
  // Build beside the target and rename: concurrent runs (test workers) never see half a file.
  const partial = `${bundle}.${process.pid}.partial`;
  esbuild().buildSync({ ...NODE_BUNDLE, entryPoints: [source], outfile: partial, logLevel: 'silent' });
  renameSync(partial, bundle);
}

let cachedVersion: string | undefined;

/** A hash of every source file's path, size and mtime, plus esbuild's version: cheap, and changes with any edit. */
function sourceVersion(): string {
  if (cachedVersion) return cachedVersion;
  const hash = createHash('sha256').update(esbuild().version);
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts')) {
        const s = statSync(path);
        hash.update(`${path}\0${s.size}\0${s.mtimeMs}\n`);
      }
    }
  };
  walk(join(ROOT, 'src'));
  walk(join(ROOT, 'mocks'));
  cachedVersion = hash.digest('hex').slice(0, 16);
  return cachedVersion;
}
