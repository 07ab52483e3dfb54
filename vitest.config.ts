import { defineConfig } from 'vitest/config';

// `npm test`: unit tests beside their modules, and the end-to-end tests in e2e/ that need
// nothing but Node (browser tests: *.browser.ts; installed-package tests: *.pack.ts).
export default defineConfig({
  test: {
    include: ['{cli,spec,mocks,fixtures,scripts,contract-tests,e2e}/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
