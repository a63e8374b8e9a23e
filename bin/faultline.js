#!/usr/bin/env node
// Faultline's entry point. The installed package runs its compiled JavaScript (dist/, no TypeScript loader). A
// development checkout runs the TypeScript sources through tsx, so `npx faultline` works right after `npm ci`
// with no build step, unless dist/ was built after the last change to src/ and mocks/ (`npm run build`).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';

// V8 grows its young generation to 32 MB while the CLI loads, and a busy process never gives it back. A run that
// keeps its heap small wants it at its start size, so it is held there from here until the command decides
// (src/core/heap-keeper.ts, releaseYoungGeneration).
setFlagsFromString('--semi-space-growth-factor=1');

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
const compiled = new URL('dist/bin/main.js', root);

/** The latest modification time of any file under dir. */
function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) latest = Math.max(latest, statSync(`${entry.parentPath ?? entry.path}/${entry.name}`).mtimeMs);
  }
  return latest;
}

function compiledIsCurrent() {
  if (!existsSync(compiled)) return false;
  const sources = new URL('src/', root);
  if (!existsSync(sources)) return true;
  const built = statSync(compiled).mtimeMs;
  return newest(sources) <= built && newest(new URL('mocks/', root)) <= built;
}

if (compiledIsCurrent()) {
  await import(compiled.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli/main.ts');
}
