// Where the suite's own files are. In a clone it runs from its TypeScript source (tsx);
// installed from the package it runs from the esbuild bundles in dist/, without a
// TypeScript loader. Both find the hooks Dredd loads and the mock `--start-mock` runs
// next to themselves, never from the working directory.
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

/** True in the bundle (dist/contract.mjs), false in the source (contract-tests/lib/package-files.ts). */
export const BUNDLED = !fileURLToPath(import.meta.url).endsWith('.ts');

export const PACKAGE_ROOT = fileURLToPath(new URL(BUNDLED ? '../' : '../../', import.meta.url));

/** The Dredd hook file, and the node flags Dredd needs to load it. */
export const DREDD_HOOKS = BUNDLED
  ? { file: join(PACKAGE_ROOT, 'dist/dredd-hooks.cjs'), require: [] as string[] }
  : { file: join(PACKAGE_ROOT, 'contract-tests/hooks/dredd-hooks.ts'), require: ['--require', 'tsx/cjs'] };

/** `node <these> --port 0 ...` runs the mock as its own program. */
export const MOCK_PROGRAM: string[] = BUNDLED ? [join(PACKAGE_ROOT, 'dist/mock.mjs')] : ['--import', 'tsx', join(PACKAGE_ROOT, 'mocks/cli.ts')];
