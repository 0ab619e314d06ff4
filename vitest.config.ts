import { defineConfig } from 'vitest/config';

// Tests spawn real driver processes; two cores means two workers at most.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    maxWorkers: 2,
    // Caps against a hung test, never a speed check: every test waits for its condition, and on a machine busy with
    // a full conformance run or a second suite a real-process test takes many times its idle time. Speed is for
    // `npm run bench`. No test sets a lower cap of its own.
    testTimeout: 600_000,
    // Setup hooks run whole scenario sweeps; on a busy CI machine they take minutes, not seconds.
    hookTimeout: 900_000,
  },
});
