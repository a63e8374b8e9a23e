// Whether dist/ holds a build of the current sources: bin/faultline.js runs it only then, and npm's prepare script
// (scripts/prepare.js) skips a build that would change nothing. That skip matters beyond speed: `npx faultline` in
// a checkout installs the checkout as a link and runs its prepare script, and rebuilding dist/ then would swap
// its files under any faultline already running from it.
import { existsSync, readdirSync, statSync } from 'node:fs';

/** The latest modification time of any file under dir (0 when it does not exist). */
function newest(dir) {
  if (!existsSync(dir)) return 0;
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) latest = Math.max(latest, statSync(`${entry.parentPath ?? entry.path}/${entry.name}`).mtimeMs);
  }
  return latest;
}

/** The compiled CLI under root (a file: URL ending in /). */
export function compiledEntry(root) {
  return new URL('dist/bin/main.js', root);
}

/** True when dist/ was built after every file in src/ and mocks/ last changed (an installed package has neither). */
export function compiledIsCurrent(root) {
  const compiled = compiledEntry(root);
  if (!existsSync(compiled)) return false;
  const built = statSync(compiled).mtimeMs;
  return newest(new URL('src/', root)) <= built && newest(new URL('mocks/', root)) <= built;
}
