import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{cli,spec,mocks,fixtures,scripts,contract-tests}/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
