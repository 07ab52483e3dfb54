// What the build worked out about the generator, for the bundles in dist/: its
// fingerprint (generatorFingerprint, without generating a sample: that needs faker) and
// the directory of the datasets it generated ahead (the default one), as snapshots
// (mocks/dataset/snapshot.ts). scripts/build-mock.ts writes this module's contents into
// each bundle; run from the sources, it holds nothing.

export interface BuiltDatasets {
  /** generatorFingerprint() of the sources the bundle was built from. */
  generator: string;
  /** The directory of the snapshots the build wrote (dist/datasets/). */
  dir: string;
}

export const BUILT_DATASETS: BuiltDatasets | undefined = undefined;
