// The files a command is pointed at (report.json, a baseline, a shard's output): each mistake is one UserError line
// naming the file and what was expected, and a good file reads as written.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readBaseline } from '../../../src/cli/baseline-command.ts';
import { readReportFile, readRun } from '../../../src/cli/read-run.ts';
import { readNamedFile } from '../../../src/cli/read-text.ts';
import { UserError } from '../../../src/cli/user-error.ts';

const dir = mkdtempSync(join(tmpdir(), 'faultline-read-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** The UserError `read` throws, as its message; fails when it throws anything else or nothing. */
function userError(read: () => unknown): string {
  try {
    read();
  } catch (error) {
    expect(error).toBeInstanceOf(UserError);
    return (error as Error).message;
  }
  throw new Error('expected a UserError, got none');
}

describe('readNamedFile', () => {
  it('reads a file as text', () => {
    expect(readNamedFile(file('a.txt', 'hello'), 'unused')).toBe('hello');
  });

  it('names a missing file with what the user should give', () => {
    const path = join(dir, 'missing.json');
    expect(userError(() => readNamedFile(path, 'expected a report'))).toBe(`${path}: no such file (expected a report)`);
  });

  it('names the error code of a file that cannot be read', () => {
    const folder = join(dir, 'a-folder');
    mkdirSync(folder);
    expect(userError(() => readNamedFile(folder, 'unused'))).toBe(`${folder}: cannot read (EISDIR)`);
  });
});

describe('readReportFile', () => {
  const schema = z.object({ schemaVersion: z.literal(2), profiles: z.array(z.object({ name: z.string() })) });

  it('returns the document as written and as the schema reads it', () => {
    const path = file('ok.json', '{"schemaVersion":2,"profiles":[{"name":"a"}]}');
    const { raw, report } = readReportFile(path, schema, 'a report');
    expect(report.profiles[0].name).toBe('a');
    expect(raw).toEqual({ schemaVersion: 2, profiles: [{ name: 'a' }] });
  });

  it('says a file that is not JSON is not, and what was expected', () => {
    const path = file('text.json', 'not json');
    expect(userError(() => readReportFile(path, schema, 'a report'))).toBe(`${path}: not JSON (expected a report)`);
  });

  it('names the path inside the document of the first problem', () => {
    const path = file('bad.json', '{"schemaVersion":2,"profiles":[{"name":3}]}');
    expect(userError(() => readReportFile(path, schema, 'a report'))).toMatch(
      new RegExp(`^${path}: profiles\\.0\\.name: .* \\(expected a report\\)$`),
    );
  });

  it('readRun checks report.json in a run directory against the published schema', () => {
    const run = join(dir, 'run');
    mkdirSync(run);
    writeFileSync(join(run, 'report.json'), '{"schemaVersion":2}');
    expect(userError(() => readRun(run))).toMatch(/report\.json: .*expected a report\.json of faultline run/);
  });
});

describe('readBaseline', () => {
  it('tells how to write a baseline that is missing', () => {
    const path = join(dir, 'baseline.json');
    expect(userError(() => readBaseline(path))).toBe(
      `${path}: no such file (write one with faultline baseline update)`,
    );
  });
});
