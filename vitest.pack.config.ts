import { defineConfig } from 'vitest/config';

// The package as someone without a clone gets it: `npm pack`, installed into an empty
// folder from the tarball (its dependencies from the npm registry). Separate from
// `npm test` because it needs the registry and takes tens of seconds. One file at a
// time: each packs the repository, and packing rebuilds dist/, which another file's
// pack would be reading.
export default defineConfig({
  test: {
    include: ['e2e/**/*.pack.ts'],
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 300_000,
  },
});
