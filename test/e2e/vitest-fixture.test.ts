// faultline/vitest's fixture tears down what a test started when the test times out or fails: an inner vitest
// suite (fixtures/teardown/) starts servers, environments and a run, then times out or throws; its last test,
// in the same worker, finds none of their server processes; and after the suite none of them is left anywhere.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';

/**
 * The hanging inner test's timeout: room for its three server starts on a loaded machine (about a second each),
 * and all the test waits for, so it is kept short.
 */
const HANG_TIMEOUT_MS = 15_000;
const dir = mkdtempSync(join(tmpdir(), 'faultline-teardown-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Assertion {
  title: string;
  status: string;
  duration: number;
  failureMessages: string[];
}

/** Processes whose environment carries the mark. */
function marked(mark: string): string[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/environ`, 'utf8').includes(`FAULTLINE_TEARDOWN_MARK=${mark}`);
      } catch {
        return false;
      }
    });
}

it('leaves nothing running after a chaos test times out or fails', { timeout: 240_000 }, async () => {
  const mark = randomBytes(8).toString('hex');
  const ready = join(dir, 'ready');
  const results = join(dir, 'results.json');
  const child = spawn(
    process.execPath,
    [
      'node_modules/vitest/vitest.mjs',
      'run',
      '--config',
      'test/e2e/fixtures/teardown/vitest.config.ts',
      '--reporter=json',
      `--outputFile=${results}`,
    ],
    {
      env: {
        ...process.env,
        FAULTLINE_TEARDOWN_MARK: mark,
        FAULTLINE_TEARDOWN_READY: ready,
        FAULTLINE_TEARDOWN_TIMEOUT_MS: String(HANG_TIMEOUT_MS),
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));

  // The negative control: while the first test hung, its three servers ran and carried the mark.
  expect(existsSync(ready), stderr).toBe(true);
  expect(readFileSync(ready, 'utf8').split(' ')).toHaveLength(3);
  expect(existsSync(`${ready}.stdio`), stderr).toBe(true);

  const report = JSON.parse(readFileSync(results, 'utf8'));
  const byTitle = Object.fromEntries(
    report.testResults.flatMap((file: { assertionResults: Assertion[] }) =>
      file.assertionResults.map((t) => [
        t.title,
        { status: t.status, durationMs: t.duration, failure: t.failureMessages.join('\n') },
      ]),
    ),
  );
  expect(code).toBe(1);
  expect(byTitle['times out with a server, an environment and a run going'].status).toBe('failed');
  // It can only end by its timeout: anything else would have ended it sooner.
  expect(byTitle['times out with a server, an environment and a run going'].durationMs).toBeGreaterThanOrEqual(
    HANG_TIMEOUT_MS - 1000,
  );
  expect(byTitle['throws with a stdio environment connected']).toMatchObject({ status: 'failed' });
  expect(byTitle['throws with a stdio environment connected'].failure).toContain('boom');
  expect(byTitle['nothing the tests before started is left running']).toMatchObject({ status: 'passed' });
  expect(marked(mark)).toEqual([]);
  expect(existsSync(`/proc/${readFileSync(`${ready}.stdio`, 'utf8')}`)).toBe(false);
});
