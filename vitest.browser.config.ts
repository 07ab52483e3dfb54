import { defineConfig } from 'vitest/config';

// Real-browser tests: separate from `npm test` because they need Chromium installed.
export default defineConfig({
  test: {
    include: ['e2e/**/*.browser.ts', 'contract-tests/**/*.e2e.ts'],
    testTimeout: 90_000,
    hookTimeout: 60_000,
  },
});
