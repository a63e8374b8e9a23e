// npm run build: dist/src and dist/mocks (tsc: the library's JavaScript and type declarations), and dist/bin
// (esbuild: the CLI and the server processes as bundles, which start in about half the time of the same code
// as hundreds of separate modules). Built beside dist/ and renamed into place, so a faultline starting meanwhile
// sees the old build, no build (then it runs the sources), or the new one, never half of one.
import { execFileSync } from 'node:child_process';
import { renameSync, rmSync } from 'node:fs';
import { buildSync } from 'esbuild';
import { NODE_BUNDLE } from '../src/targets/entry.ts';

const partial = `dist.partial-${process.pid}`;
try {
  execFileSync(
    process.execPath,
    ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json', '--outDir', partial],
    { stdio: 'inherit' },
  );
  buildSync({
    ...NODE_BUNDLE,
    entryPoints: {
      main: 'src/cli/main.ts',
      'child-main': 'src/server/child-main.ts',
      'stdio-main': 'src/server/stdio-main.ts',
      'cassette-main': 'src/server/cassette-main.ts',
      'intercept-preload': 'mocks/intercept-preload.ts',
    },
    outdir: `${partial}/bin`,
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    // Native add-ons (testcontainers' ssh2) and esbuild's own binary cannot be bundled: loaded from node_modules.
    external: ['testcontainers', 'esbuild'],
    minifySyntax: true,
    minifyWhitespace: true,
    logLevel: 'warning',
  });
  rmSync('dist', { recursive: true, force: true });
  renameSync(partial, 'dist');
} finally {
  rmSync(partial, { recursive: true, force: true });
}
