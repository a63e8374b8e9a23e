import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { discoverProfiles } from '../../../src/cli/discover.ts';
import { prepareOutDir, writtenFiles } from '../../../src/cli/out-dir.ts';
import { UserError } from '../../../src/cli/user-error.ts';

const dir = mkdtempSync(join(tmpdir(), 'faultline-out-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof UserError) return error.message;
    throw error;
  }
  throw new Error('expected a UserError');
}

describe('--out is checked before the run', () => {
  it('creates a missing directory, nested, and leaves no probe behind', () => {
    const out = join(dir, 'a', 'b', 'c');
    prepareOutDir(out);
    expect(existsSync(out)).toBe(true);
    expect(readdirSync(out)).toEqual([]);
  });

  it('accepts an existing directory and keeps what is in it', () => {
    const out = join(dir, 'existing');
    mkdirSync(out);
    writeFileSync(join(out, 'report.json'), '{}');
    prepareOutDir(out);
    expect(readdirSync(out)).toEqual(['report.json']);
  });

  it('refuses /proc and /sys, also behind a symlink', () => {
    expect(refusal(() => prepareOutDir('/proc/self/out'))).toBe(
      '--out /proc/self/out: under /proc or /sys; expected a writable directory',
    );
    expect(refusal(() => prepareOutDir('/sys'))).toMatch(/under \/proc or \/sys/);
    const link = join(dir, 'to-proc');
    symlinkSync('/proc/self', link);
    expect(refusal(() => prepareOutDir(join(link, 'reports')))).toMatch(/under \/proc or \/sys/);
  });

  it('refuses a file, and a path under a file', () => {
    const file = join(dir, 'file.txt');
    writeFileSync(file, 'x');
    expect(refusal(() => prepareOutDir(file))).toMatch(/cannot create it: exists and is not a directory \(EEXIST\)/);
    expect(refusal(() => prepareOutDir(join(file, 'sub')))).toMatch(/a parent is not a directory \(ENOTDIR\)/);
  });

  // root writes anywhere, so the permission check only shows for other users.
  it.skipIf(process.getuid?.() === 0)('refuses a directory it cannot write in', () => {
    const locked = join(dir, 'locked');
    mkdirSync(locked);
    chmodSync(locked, 0o555);
    expect(refusal(() => prepareOutDir(locked))).toMatch(/cannot write in it: permission denied \(EACCES\)/);
  });
});

describe('profile discovery', () => {
  it('refuses a named folder without profiles', () => {
    const empty = join(dir, 'no-profiles');
    mkdirSync(empty);
    writeFileSync(join(empty, 'notes.txt'), 'x');
    expect(refusal(() => discoverProfiles([empty]))).toBe(`${empty}/: no .yaml profiles found`);
  });

  it('expands a folder into its profiles, sorted', () => {
    const some = join(dir, 'some');
    mkdirSync(some);
    writeFileSync(join(some, 'b.yaml'), '');
    writeFileSync(join(some, 'a.yml'), '');
    expect(discoverProfiles([some])).toEqual([join(some, 'a.yml'), join(some, 'b.yaml')]);
  });
});

describe('writtenFiles', () => {
  it("names each file by its path inside --out, so a matrix's subfolders do not read as one file written five times", () => {
    expect(
      writtenFiles('/tmp/out', ['/tmp/out/report.json', '/tmp/out/legacy/report.json', '/tmp/out/modern/junit.xml']),
    ).toBe('report.json, legacy/report.json, modern/junit.xml');
  });
});
