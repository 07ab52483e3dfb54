import { defineConfig } from 'vitest/config';

// The package as someone without a clone gets it: `npm pack`, installed into an empty
// folder from the tarball (its dependencies from the npm registry). Separate from
// `npm test` because it needs the registry and takes tens of seconds.
export default defineConfig({
  test: {
    include: ['e2e/**/*.pack.ts'],
    testTimeout: 120_000,
    hookTimeout: 300_000,
    // Each file packs the repository (prepack rebuilds dist/): one at a time, so no tarball takes another's half-written bundle.
    fileParallelism: false,
  },
});
