// A user's file is read with a cap, not checked by its size first: a character device or a pipe has none.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_USER_FILE_BYTES, readUserFile } from '../../../src/profile/user-file.ts';

const dir = mkdtempSync(join(tmpdir(), 'faultline-user-file-'));

describe('readUserFile', () => {
  it('reads a file within the cap as it is', () => {
    const file = join(dir, 'small.yaml');
    writeFileSync(file, 'name: é\n');
    expect(readUserFile(file, 9)).toBe('name: é\n');
  });

  it('refuses a file one byte over the cap', () => {
    const file = join(dir, 'over.yaml');
    writeFileSync(file, 'x'.repeat(11));
    expect(() => readUserFile(file, 10)).toThrow(
      `${file}: (file): more than 10 bytes; expected a file of at most 10 bytes`,
    );
  });

  it('stops reading /dev/zero (no size, no end) at the cap', () => {
    expect(() => readUserFile('/dev/zero')).toThrow(
      `/dev/zero: (file): more than ${MAX_USER_FILE_BYTES} bytes; expected a file of at most ${MAX_USER_FILE_BYTES} bytes`,
    );
  });

  it('names a missing file and an unreadable one', () => {
    expect(() => readUserFile(join(dir, 'nope.yaml'))).toThrow(/nope\.yaml: \(file\): no such file$/);
    expect(() => readUserFile(dir)).toThrow(/: \(file\): cannot read \(EISDIR\)$/);
  });
});
