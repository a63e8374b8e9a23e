// A user's file (a profile, an MCP config) as text. The read itself is capped: a named pipe or a character device
// (`faultline validate /dev/zero`) has no size to check first and may never end, so reading stops one byte past
// the cap and the file is refused.
import { closeSync, openSync, readSync } from 'node:fs';
import { ProfileError } from '../core/profile-error.ts';

/** The largest file read: the shipped profiles are a few KB. */
export const MAX_USER_FILE_BYTES = 256 * 1024;

/** The file's text, or a ProfileError naming it (no such file, cannot read, over the cap). */
export function readUserFile(file: string, maxBytes = MAX_USER_FILE_BYTES): string {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    throw unreadable(file, error);
  }
  try {
    const buffer = Buffer.alloc(maxBytes + 1);
    let length = 0;
    for (let n = -1; n !== 0 && length < buffer.length; length += n) {
      n = readSync(fd, buffer, length, buffer.length - length, null);
    }
    if (length > maxBytes) {
      throw new ProfileError(
        file,
        '(file)',
        `more than ${maxBytes} bytes; expected a file of at most ${maxBytes} bytes`,
      );
    }
    return buffer.toString('utf8', 0, length);
  } catch (error) {
    throw error instanceof ProfileError ? error : unreadable(file, error);
  } finally {
    closeSync(fd);
  }
}

function unreadable(file: string, error: unknown): ProfileError {
  const code = (error as NodeJS.ErrnoException).code;
  return new ProfileError(file, '(file)', code === 'ENOENT' ? 'no such file' : `cannot read (${code})`);
}
