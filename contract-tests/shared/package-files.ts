// Where the suite's own files are. In a clone it runs from its TypeScript source (tsx);
// installed from the package it runs from the esbuild bundles in dist/, without a
// TypeScript loader. Both find the hook file Dredd loads and the mock `--start-mock`
// runs next to themselves, never from the working directory.
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

/** True in the bundle (dist/contract.mjs), false in the source (contract-tests/shared/package-files.ts). */
export const BUNDLED = !fileURLToPath(import.meta.url).endsWith('.ts');

export const PACKAGE_ROOT = fileURLToPath(new URL(BUNDLED ? '../' : '../../', import.meta.url));

/** The hook file Dredd loads (plain CommonJS: no loader needed), copied into dist/ for the package. */
export const DREDD_HOOKS = join(
  PACKAGE_ROOT,
  BUNDLED ? 'dist/dredd-hooks.cjs' : 'contract-tests/replay/dredd-hooks.cjs',
);

/** `node <these> --port 0 ...` runs the mock as its own program. */
export const MOCK_PROGRAM: string[] = BUNDLED
  ? [join(PACKAGE_ROOT, 'dist/mock.mjs')]
  : ['--import', 'tsx', join(PACKAGE_ROOT, 'mocks/node/cli.ts')];
