import { defineConfig } from 'vitest/config';

// Four lanes. `unit` has no child processes (loopback sockets in this process only) and is the developer's fast
// lane (`npm run test:unit`); `server` forks reference servers; `contract` runs the error contract against one;
// `e2e` runs shipped profiles and the CLI binary. `npm test` runs them all.
const lane = (name: string, include: string[], testTimeout: number) => ({
  extends: true as const,
  test: { name, include, testTimeout },
});

export default defineConfig({
  test: {
    hookTimeout: 30_000,
    // Timing-sensitive fault tests share 2 noisy cores: at most two test files run at once.
    maxWorkers: 2,
    projects: [
      lane('unit', ['test/unit/**/*.test.ts'], 30_000),
      lane('server', ['test/server/**/*.test.ts'], 60_000),
      lane('contract', ['test/contract/**/*.test.ts'], 60_000),
      lane('e2e', ['test/e2e/**/*.test.ts'], 120_000),
    ],
  },
});
