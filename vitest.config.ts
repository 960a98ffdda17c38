import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    // Two files at once on a 2-core runner: most slow tests wait on devnet blocks, not the CPU.
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ['default', './test/helpers/summary-reporter.ts'],
  },
});
