// vitest's global set-up: every test file, and every process it starts, makes its temporary files under one folder
// made for this test run (TMPDIR, which os.tmpdir() reads on every call), removed when the run ends. About thirty
// files make a folder of their own and leave it (report directories of whole suites among them): a developer's
// /tmp no longer fills with them, run after run. Each lane (project) runs the set-up; the first one makes the folder.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const MARK = 'FAULTLINE_TEST_TMPDIR';

/** The temporary folder outside this test run's, for what a test leaves for a person on purpose (one fixed name). */
export function keptTmpdir(): string {
  const run = process.env[MARK];
  return run === undefined ? tmpdir() : dirname(run);
}

export default function setup(): (() => void) | undefined {
  if (process.env[MARK] !== undefined) return undefined;
  const before = process.env.TMPDIR;
  const dir = mkdtempSync(join(tmpdir(), 'faultline-tests-'));
  process.env.TMPDIR = process.env[MARK] = dir;
  return () => {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    delete process.env[MARK];
    rmSync(dir, { recursive: true, force: true });
  };
}
