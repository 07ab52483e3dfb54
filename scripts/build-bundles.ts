// `npm run build:contract` / `npm run build:proxy`: the suite's and the proxy's programs, each one ES module for
// Node 20 with its dependencies left as imports (the package installs them), the way `npm run build` makes the mock's.
// The suite's Dredd hooks go beside it as CommonJS: Dredd require()s them.
import { build, type BuildOptions } from 'esbuild';
import { NODE_PROGRAM as PROGRAM } from './build-mock.ts';

const BUNDLES: Record<string, BuildOptions[]> = {
  contract: [
    { ...PROGRAM, entryPoints: ['contract-tests/cli.ts'], outfile: 'dist/contract.mjs' },
    {
      entryPoints: ['contract-tests/replay/dredd-hooks.cjs'],
      format: 'cjs',
      outfile: 'dist/dredd-hooks.cjs',
      logLevel: 'warning',
    },
  ],
  proxy: [{ ...PROGRAM, entryPoints: ['contract-tests/proxy/cli.ts'], outfile: 'dist/proxy.mjs' }],
};

const names = process.argv.slice(2);
const unknown = names.filter((n) => !(n in BUNDLES));
if (!names.length || unknown.length) {
  console.error(
    `build-bundles: name one or more of ${Object.keys(BUNDLES).join(', ')}; got ${names.join(' ') || 'none'}`,
  );
  process.exit(2);
}
for (const name of names) for (const options of BUNDLES[name]!) await build(options);
