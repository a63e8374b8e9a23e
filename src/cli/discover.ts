// Which profiles a command means: the files named, or every profile in chaos-profiles/.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { PACKAGE_ROOT } from '../core/package-root.ts';
import { UserError } from './user-error.ts';

export const DEFAULT_PROFILE_DIR = 'chaos-profiles';

export function discoverProfiles(args: string[], dir = DEFAULT_PROFILE_DIR): string[] {
  if (args.length > 0) {
    return args.flatMap((arg) => (existsSync(arg) && statSync(arg).isDirectory() ? yamlFiles(arg) : [arg]));
  }
  // Outside the repository (faultline installed as a dependency) the shipped profiles are the default.
  const shipped = join(PACKAGE_ROOT, DEFAULT_PROFILE_DIR);
  const from = existsSync(dir) ? dir : existsSync(shipped) ? relative(process.cwd(), shipped) || shipped : undefined;
  if (!from)
    throw new UserError(`${dir}/: no such directory; name a profile file or run from a folder that has ${dir}/`);
  const files = yamlFiles(from);
  if (files.length === 0) throw new UserError(`${dir}/: no .yaml profiles found`);
  return files;
}

function yamlFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => /\.ya?ml$/.test(f))
    .sort()
    .map((f) => join(dir, f));
}
