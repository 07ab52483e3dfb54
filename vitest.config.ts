import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// `npm test`: unit tests beside their modules, and the end-to-end tests in e2e/ that need
// nothing but Node (browser tests: *.browser.ts; installed-package tests: *.pack.ts).
export default defineConfig({
  test: {
    include: ['{cli,spec,mocks,fixtures,scripts,contract-tests,e2e,testing}/**/*.test.ts'],
    // Vitest's default leaves one core to itself: one worker on a two-core machine. Many
    // files here wait on child processes and sockets rather than the CPU, so two workers
    // there take about two thirds of the time (97 s -> 66 s measured on two cores).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
