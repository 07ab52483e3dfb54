// `npm run build:package` (part of `npm pack`): what the package ships beside the bins'
// bundles (`npm run build`, `npm run build:contract`):
// - the library entry, `import { createMock } from 'server-listing-mock'`: dist/index.mjs,
//   which runs mocks/node/in-process.ts bundled as one script with V8's code cache of it
//   (scripts/build-library.ts), with the same work done ahead as the mock's bundle
//   (scripts/build-mock.ts: the spec parsed, its validators compiled, the default dataset in
//   dist/datasets/), and its declarations in one file (dist/index.d.ts, by dts-bundle-generator);
// - the spec's generated types, `server-listing-mock/types` (dist/types.d.ts: a copy of
//   spec/openapi.gen.ts, which holds declarations only; dist/types.mjs is empty);
// - Swagger UI's files for the docs page (dist/swagger-ui/, with their licence), so the
//   package does not depend on swagger-ui-dist, whose dependency @scarf/scarf reports
//   every install (decision 0027).
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateDtsBundle } from 'dts-bundle-generator';
import { SWAGGER_UI_FILES } from '../mocks/docs-page/docs-page.ts';
import { builtModules, bundleOptions } from './build-mock.ts';
import { buildLibrary } from './build-library.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const DIST = join(ROOT, 'dist');
const ENTRY = join(ROOT, 'mocks/node/in-process.ts');
const MSW_ENTRY = join(ROOT, 'mocks/node/msw-handlers.ts');

mkdirSync(join(DIST, 'swagger-ui'), { recursive: true });

await buildLibrary(DIST);
await build({ entryPoints: [MSW_ENTRY], outfile: join(DIST, 'msw.mjs'), ...bundleOptions(builtModules()) });

const [declarations, mswDeclarations] = generateDtsBundle(
  [
    { filePath: ENTRY, output: { noBanner: true } },
    // The mock's own types come from the main entry, not a copy.
    { filePath: MSW_ENTRY, output: { noBanner: true }, libraries: { importedLibraries: ['msw'] } },
  ],
  { preferredConfigPath: join(ROOT, 'tsconfig.json') },
);
writeFileSync(
  join(DIST, 'index.d.ts'),
  `// server-listing-mock: the mock in process (see mocks/README.md in this package).\n${declarations}`,
);
writeFileSync(
  join(DIST, 'msw.d.ts'),
  `// server-listing-mock/msw: MSW handlers over a mock in process.\n${mswDeclarations}`,
);

const types = readFileSync(join(ROOT, 'spec/openapi.gen.ts'), 'utf8');
writeFileSync(
  join(DIST, 'types.d.ts'),
  types.replace(
    '/**\n * This file was auto-generated',
    '/**\n * The types of spec/openapi.yaml (in this package). This file was auto-generated',
  ),
);
writeFileSync(join(DIST, 'types.mjs'), '// server-listing-mock/types holds types only (types.d.ts).\nexport {};\n');

const swaggerUi = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
for (const name of [...SWAGGER_UI_FILES, 'LICENSE', 'NOTICE'])
  copyFileSync(join(swaggerUi, name), join(DIST, 'swagger-ui', name));
