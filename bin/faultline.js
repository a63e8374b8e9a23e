#!/usr/bin/env node
// Faultline's entry point. The installed package runs its compiled JavaScript (dist/, no TypeScript loader). A
// development checkout runs dist/ too (`npm ci` builds it: the prepare script) until a file in src/ or mocks/
// changes; then it runs the TypeScript sources through tsx, a devDependency, until `npm run build`.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { compiledEntry, compiledIsCurrent } from './dist-state.js';

// Ctrl-C or SIGTERM before a command handles signals itself (while loading, checking a profile or a target, or in
// a command with no handler of its own) still ends with the documented exit code 130, not in death by the signal.
// A command's own handler (the run's tear-down, a server's shutdown) takes over once it is listening; listeners
// marked `passive` only take note (src/cli/main.ts).
for (const signal of ['SIGINT', 'SIGTERM']) {
  const fallback = () => {
    if (process.listeners(signal).every((listener) => listener.passive === true)) process.exit(130);
  };
  process.on(signal, Object.assign(fallback, { passive: true }));
}

const root = new URL('../', import.meta.url);
const compiled = compiledEntry(root);

/** tsx's loader, or undefined when the devDependencies are not installed (npm ci --omit=dev). */
async function tsxLoader() {
  try {
    return await import('tsx/esm/api');
  } catch (error) {
    if (error?.code === 'ERR_MODULE_NOT_FOUND') return undefined;
    throw error;
  }
}

if (compiledIsCurrent(root)) {
  await import(compiled.href);
} else {
  const tsx = await tsxLoader();
  if (tsx) {
    tsx.register();
    await import('../src/cli/main.ts');
  } else if (existsSync(compiled)) {
    process.stderr.write(
      'faultline: dist/ is older than src/ and tsx is not installed; running dist/ (npm run build)\n',
    );
    await import(compiled.href);
  } else {
    process.stderr.write(
      `faultline: no build in ${fileURLToPath(new URL('dist/', root))} and no tsx to run the sources: ` +
        'build it with `npm ci && npm run build` (needs the devDependencies)\n',
    );
    process.exitCode = 2;
  }
}
