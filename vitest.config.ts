import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// Four lanes. `unit` has no child processes (loopback sockets in this process only) and is the developer's fast
// lane (`npm run test:unit`: projects unit*); `server` forks reference servers; `contract` runs the error contract
// against one; `e2e` runs shipped profiles and the CLI binary. `npm test` runs them all.
const lane = (
  name: string,
  include: string[],
  testTimeout: number,
  more: { exclude?: string[]; isolate?: boolean; maxConcurrency?: number } = {},
) => ({
  extends: true as const,
  test: { name, include, testTimeout, ...more },
});

// Importing src/ costs a unit file more than its tests do (the SDK, msw, zod: seconds each on a busy 2-core
// machine), so test files share one module graph per worker (isolate: false): in `npm test` the summed import time
// fell from 89 to 32 s when the server, contract and e2e lanes shared theirs too. A file that replaces a module
// (vi.mock) needs a graph of its own, or a module another file loaded first would stay in place: those run isolated
// (test/unit only; the config refuses one elsewhere). Each e2e file that sets an environment variable names its own.
const UNIT = 'test/unit';
const mockingIn = (dir: string) =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.test.ts') && /\bvi\.(do)?[mM]ock\(/.test(readFileSync(`${dir}/${f}`, 'utf8')))
    .map((f) => `${dir}/${f}`);
const mocking = mockingIn(UNIT);
for (const file of ['test/server', 'test/contract', 'test/e2e'].flatMap(mockingIn))
  throw new Error(`vitest.config.ts: ${file} replaces a module; its lane shares one module graph (move it to ${UNIT})`);

// The files that take minutes start first, whatever vitest's cache holds. CI starts without one, and the base order
// is then by file size: the five-minute default suite (a short file) started 45th of the 60 e2e files. Longest first
// as CI's `npm test` measured them (252 to 256, 94 to 95, 86 to 87, 80 s); every other file keeps the base order.
const LONGEST_FIRST = ['default-suite', 'faults-off', 'shard-merge', 'nightly-path'].map(
  (n) => `test/e2e/${n}.test.ts`,
);
for (const file of LONGEST_FIRST) if (!existsSync(file)) throw new Error(`vitest.config.ts: ${file} is gone`);
const rank = (spec: TestSpecification) => {
  const i = LONGEST_FIRST.findIndex((file) => spec.moduleId.endsWith(`/${file}`));
  return i === -1 ? LONGEST_FIRST.length : i;
};
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]) {
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

// Three test files at once. Most e2e files wait out declared fault windows: with two at once the 2-core machine sat
// mostly idle (over 45 % in seven of nine 10 s samples) and `npm test` took 595 s; with three, 418 to 430 s on the same
// quiet machine. What a test asserts holds on a busy machine (counts, verdicts of count thresholds; the loaded lane
// proves it beside stress-ng), so a third file's load moves none of it. FAULTLINE_TEST_WORKERS sets another number:
// the loaded lane keeps two, the load it was measured at.
const workers = (value = '3') => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 16)
    throw new Error(
      `vitest.config.ts: FAULTLINE_TEST_WORKERS is ${JSON.stringify(value)}; expected a whole number 1 to 16`,
    );
  return n;
};

export default defineConfig({
  test: {
    globalSetup: ['test/helpers/run-tmpdir.ts'],
    sequence: { sequencer: LongestFirst },
    hookTimeout: 30_000,
    maxWorkers: workers(process.env.FAULTLINE_TEST_WORKERS),
    projects: [
      lane('unit', [`${UNIT}/**/*.test.ts`], 30_000, { exclude: mocking, isolate: false }),
      lane('unit-isolated', mocking, 30_000),
      lane('server', ['test/server/**/*.test.ts'], 60_000, { isolate: false }),
      lane('contract', ['test/contract/**/*.test.ts'], 60_000, { isolate: false }),
      // A describe.concurrent in an e2e file (runs that mostly wait out their windows) runs two tests at a time.
      lane('e2e', ['test/e2e/**/*.test.ts'], 120_000, { maxConcurrency: 2, isolate: false }),
    ],
  },
});
