// How --out's filesystem errors read, with the filesystem's answers faked: a read-only mount, as root, cannot be
// made with chmod (test/e2e/cli-bad-input.test.ts mounts a real one where it may).
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { prepareOutDir } from '../../../src/cli/out-dir.ts';

vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>();
  return { ...real, mkdirSync: vi.fn(real.mkdirSync), writeFileSync: vi.fn(real.writeFileSync) };
});

function errno(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: fake`), { code });
}

afterEach(() => {
  // Back to the real implementations.
  vi.mocked(fs.mkdirSync).mockReset();
  vi.mocked(fs.writeFileSync).mockReset();
});

describe('--out on a read-only file system', () => {
  const dir = fs.mkdtempSync(join(tmpdir(), 'faultline-out-errors-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('names EROFS when the directory cannot be written in', () => {
    vi.mocked(fs.writeFileSync).mockImplementation(() => {
      throw errno('EROFS');
    });
    expect(() => prepareOutDir(dir)).toThrow(
      `--out ${dir}: cannot write in it: read-only file system (EROFS); expected a writable directory`,
    );
  });

  it('names EROFS, not the ENOENT a recursive mkdir reports, when a missing parent cannot be made', () => {
    const out = join(dir, 'a', 'b');
    vi.mocked(fs.mkdirSync).mockImplementation((_path, options) => {
      throw errno((options as fs.MakeDirectoryOptions | undefined)?.recursive ? 'ENOENT' : 'EROFS');
    });
    expect(() => prepareOutDir(out)).toThrow(
      `--out ${out}: cannot create it: read-only file system (EROFS); expected a writable directory`,
    );
    // The real reason came from making the first missing directory alone.
    expect(vi.mocked(fs.mkdirSync)).toHaveBeenLastCalledWith(join(dir, 'a'));
  });
});
