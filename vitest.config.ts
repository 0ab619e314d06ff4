import { defineConfig } from 'vitest/config';

// Tests spawn real driver processes; two cores means two workers at most.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 120_000,
    // Setup hooks run whole scenario sweeps; on a busy CI machine they take minutes, not seconds.
    hookTimeout: 300_000,
  },
});
