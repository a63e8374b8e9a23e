import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 30_000,
    // Timing-sensitive fault tests share 2 noisy cores: keep files from starving each other.
    fileParallelism: true,
    maxWorkers: 2,
  },
});
