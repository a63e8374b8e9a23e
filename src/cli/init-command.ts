// faultline init [FILE]: writes a starter profile that validates and runs as it is, with the line that points
// editors (yaml-language-server) at the profile JSON Schema for completion. It never overwrites a file.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { PACKAGE_ROOT } from '../core/package-root.ts';
import { starterProfile } from './starter-profile.ts';
import { EXIT, UserError } from './user-error.ts';

const DEFAULT_INIT_FILE = join('chaos-profiles', 'starter.yaml');

export function initCommand(file = DEFAULT_INIT_FILE): number {
  // The schema shipped with this copy of Faultline, relative to the new file (node_modules/faultline/... once
  // installed), so the line keeps working wherever the project is checked out.
  const schema = relative(dirname(resolve(file)), join(PACKAGE_ROOT, 'schema', 'profile.schema.json'));
  mkdirSync(dirname(resolve(file)), { recursive: true });
  try {
    writeFileSync(file, starterProfile(schema.split(sep).join('/')), { flag: 'wx' });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST')
      throw new UserError(`${file}: (file): already exists; expected a new file (init never overwrites)`);
    throw new UserError(`${file}: (file): cannot write (${code})`);
  }
  process.stdout.write(`wrote ${file}\nnext: faultline validate ${file} && faultline run ${file}\n`);
  return EXIT.ok;
}
