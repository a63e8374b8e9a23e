// npm's prepare script (npm ci, npm install from git, npm pack, and `npx faultline` in a checkout, which installs
// the checkout as a link): builds dist/ so that `faultline` starts from compiled bundles instead of the TypeScript
// sources, unless dist/ already holds a build of the current sources. The build needs the devDependencies (tsx,
// TypeScript); without them (npm ci --omit=dev) there is nothing to build with, so it says so and leaves the
// install alone.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { compiledIsCurrent } from '../bin/dist-state.js';

const tools = ['node_modules/tsx/package.json', 'node_modules/typescript/bin/tsc'];
if (compiledIsCurrent(pathToFileURL(`${process.cwd()}/`))) {
  // Nothing changed since the last build: keep it (a running faultline may be using its files).
} else if (tools.every((tool) => existsSync(tool))) {
  const build = spawnSync(process.execPath, ['bin/run-ts.js', 'scripts/build.ts'], { stdio: 'inherit' });
  process.exitCode = build.status ?? 1;
} else {
  process.stderr.write(
    'faultline prepare: devDependencies not installed, dist/ not built (`npm ci && npm run build` builds it)\n',
  );
}

// The checkout's own bin, linked like a dependency's, so npm scripts (node_modules/.bin is on their PATH) and tools that look in
// node_modules/.bin find it. `npx faultline` (npm exec) does not use it: npm 11 sees the project's own bin first and installs
// the checkout into its npx cache on every call (about 0.8 s over npx's own floor; `npm run bench:startup`).
const bin = 'node_modules/.bin/faultline';
if (existsSync('node_modules') && !existsSync(bin)) {
  mkdirSync('node_modules/.bin', { recursive: true });
  symlinkSync('../../bin/faultline.js', bin);
}
