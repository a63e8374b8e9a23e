// `--out` is checked before anything runs, so a bad path costs a second and not a whole run: created when
// missing, then proven writable by writing and removing a probe file. Only synchronous calls, no timer: a pseudo
// filesystem cannot leave a pending write behind. /proc and /sys are refused outright: writes there reach the
// kernel, and some never return.
import { existsSync, mkdirSync, realpathSync, rmdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { UserError } from './user-error.ts';

const KERNEL_FILESYSTEMS = /^\/(proc|sys)(\/|$)/;

const REASONS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'read-only file system',
  ENOTDIR: 'a parent is not a directory',
  EEXIST: 'exists and is not a directory',
  ENOSPC: 'no space left',
  ENAMETOOLONG: 'name too long',
};

export function prepareOutDir(dir: string): void {
  const refuse = (what: string) => {
    throw new UserError(`--out ${dir}: ${what}; expected a writable directory`);
  };
  const why = (error: unknown) => {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    return REASONS[code] ? `${REASONS[code]} (${code})` : code;
  };
  const target = resolve(dir);
  if (KERNEL_FILESYSTEMS.test(realPath(target))) refuse('under /proc or /sys');
  try {
    mkdirSync(target, { recursive: true });
  } catch (error) {
    refuse(`cannot create it: ${why(creationError(target, error))}`);
  }
  if (!statSync(target).isDirectory()) refuse('not a directory');
  const probe = join(target, `.faultline-probe-${process.pid}`);
  try {
    writeFileSync(probe, '');
    rmSync(probe);
  } catch (error) {
    refuse(`cannot write in it: ${why(error)}`);
  }
}

/**
 * Why the directory could not be made. A recursive mkdir says ENOENT whenever a missing parent cannot be made (on a
 * read-only mount too, where the reason is EROFS): making the first missing one alone gives the real reason.
 */
function creationError(target: string, error: unknown): unknown {
  if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return error;
  let first = target;
  while (dirname(first) !== first && !existsSync(dirname(first))) first = dirname(first);
  try {
    mkdirSync(first);
    rmdirSync(first);
  } catch (cause) {
    return cause;
  }
  return error;
}

/** The path with symlinks resolved as far as it exists (a link may point into /proc). */
function realPath(path: string): string {
  let existing = path;
  const rest: string[] = [];
  while (!existsSync(existing) && dirname(existing) !== existing) {
    rest.unshift(basename(existing));
    existing = dirname(existing);
  }
  try {
    return join(realpathSync(existing), ...rest);
  } catch {
    return path;
  }
}

/** "report.json, junit.xml, ...": the files written, by their path inside `dir`. */
export function writtenFiles(dir: string, written: readonly string[]): string {
  return written.map((p) => relative(dir, p) || p).join(', ');
}
