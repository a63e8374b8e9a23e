// Which profiles a command means: the files named, or every profile in chaos-profiles/.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { PACKAGE_ROOT } from '../core/package-root.ts';
import { UserError } from './user-error.ts';

const DEFAULT_PROFILE_DIR = 'chaos-profiles';

export function discoverProfiles(args: string[], dir = DEFAULT_PROFILE_DIR): string[] {
  if (args.length > 0) return args.flatMap((arg) => (isDirectory(arg) ? profilesIn(arg) : [arg]));
  // Outside the repository (faultline installed as a dependency) the shipped profiles are the default.
  const shipped = join(PACKAGE_ROOT, DEFAULT_PROFILE_DIR);
  const from = existsSync(dir) ? dir : existsSync(shipped) ? relative(process.cwd(), shipped) || shipped : undefined;
  if (!from)
    throw new UserError(`${dir}/: no such directory; name a profile file or run from a folder that has ${dir}/`);
  return profilesIn(from);
}

/** A folder named must hold profiles: an empty one is a mistake, not an empty (and report-overwriting) run. */
function profilesIn(dir: string): string[] {
  const files = yamlFiles(dir);
  if (files.length === 0) throw new UserError(`${dir.replace(/\/$/, '')}/: no .yaml profiles found`);
  return files;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function yamlFiles(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (error) {
    throw new UserError(`${dir}/: cannot read the folder (${(error as NodeJS.ErrnoException).code})`);
  }
  return names
    .filter((f) => /\.ya?ml$/.test(f))
    .sort()
    .map((f) => join(dir, f));
}
