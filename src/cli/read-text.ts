// A file the user named on the command line, as text: a missing or unreadable one is one line naming it (exit 2).
import { readFileSync } from 'node:fs';
import { UserError } from './user-error.ts';

/** The file's text; a missing file's error says `whenMissing`, what the user should have given or can do. */
export function readNamedFile(file: string, whenMissing: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UserError(`${file}: ${code === 'ENOENT' ? `no such file (${whenMissing})` : `cannot read (${code})`}`);
  }
}
