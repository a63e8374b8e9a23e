// npm's prepare script (npm ci, npm install from git, npm pack): builds dist/ so that `faultline` starts from
// compiled bundles instead of the TypeScript sources. The build needs the devDependencies (tsx, TypeScript);
// without them (npm ci --omit=dev) there is nothing to build with, so it says so and leaves the install alone.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const tools = ['node_modules/tsx/package.json', 'node_modules/typescript/bin/tsc'];
if (tools.every((tool) => existsSync(tool))) {
  const build = spawnSync(process.execPath, ['bin/run-ts.js', 'scripts/build.ts'], { stdio: 'inherit' });
  process.exitCode = build.status ?? 1;
} else {
  process.stderr.write(
    'faultline prepare: devDependencies not installed, dist/ not built (`npm ci && npm run build` builds it)\n',
  );
}
