// `npm run build`: the mock's bundle, dist/mock.mjs (esbuild, from mocks/node/cli.ts),
// with what can be worked out ahead of a start built in, so a start does only what its
// first answers need (issue 24; decision 0032):
// - spec/built.ts: the spec parsed (JSON text) and the mock's request validators compiled
//   (ajv's standalone code), keyed by the spec's sha256: a start from that very text
//   neither loads js-yaml nor ajv; an edited spec or another copy is parsed and compiled then;
// - mocks/dataset/built.ts: the generator's fingerprint (checking a snapshot needs no faker)
//   and dist/datasets/, the default dataset (seed 1337, 1000 servers) generated and sorted
//   here, as a snapshot (mocks/dataset/snapshot.ts) the mock reads instead of generating;
// - dist/mock.inputs.json: every file the bundle was built from with the sha256 of its
//   content, and the bundle's own, so `npm run mock` (scripts/run-mock.mjs) rebuilds
//   exactly when one of them is not what it was built from, whatever the file times say.
// The package's library entry (scripts/build-package.ts) gets the same built modules.
//
//   npm run build                     (npm run mock and npm pack run it too)
//   tsx scripts/build-mock.ts --out DIR   (another directory: the tests)
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type BuildOptions, type Plugin } from 'esbuild';
import { programFlags, type FlagTable } from '../cli/flags.ts';
import { parseSpec, SPEC_PATH } from '../spec/load.ts';
import { buildModel, loadModel } from '../spec/model.ts';
import { createAjv, recordCompiled, type Compiled } from '../spec/validator.ts';
import { compileOperations } from '../mocks/core/operations.ts';
import { ResponseChecker } from '../mocks/core/self-check/self-check.ts';
import { generateDataset, generatorFingerprint } from '../mocks/dataset/generator.ts';
import { writeSnapshot } from '../mocks/dataset/snapshot.ts';
import { sortOrders, sortRuleOf } from '../mocks/dataset/sort-orders.ts';
import { DEFAULT_OPTIONS } from '../mocks/node/options.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
export const DIST = join(ROOT, 'dist');
/** Where a bundle finds the datasets generated here: beside it. */
export const DATASETS = 'datasets';
/** The list of the bundle's inputs, read by scripts/run-mock.mjs. */
export const INPUTS_FILE = 'mock.inputs.json';

/** The contents the build gives the stub modules, by their path in the repository. */
export type BuiltModules = Record<'spec/built.ts' | 'mocks/dataset/built.ts', string>;

/**
 * The spec's built module: its text's sha256, the document as JSON and the
 * standalone code of every validator the mock compiles at start; with `selfCheck`,
 * those its self-check compiles too (the library's: a mock under vitest checks its answers).
 */
function specModule(selfCheck: boolean): string {
  const text = readFileSync(SPEC_PATH, 'utf8');
  const doc = parseSpec(text);
  const compiled = recordCompiled(() => {
    const model = buildModel(doc);
    compileOperations(model);
    if (selfCheck) new ResponseChecker(model).compileAll();
  });
  // One ajv per option set, each one's code in a function of its own (their names would clash).
  const groups = new Map<string, Compiled[]>();
  for (const c of compiled) {
    const k = JSON.stringify(c.options);
    groups.set(k, [...(groups.get(k) ?? []).filter((x) => x.key !== c.key), c]);
  }
  const standaloneCode = (
    createRequire(import.meta.url)('ajv/dist/standalone') as {
      default: (ajv: unknown, refs: Record<string, string>) => string;
    }
  ).default;
  const parts = [...groups.values()].map((group) => {
    const ajv = createAjv(doc, group[0]!.options, { code: { source: true } });
    for (const c of group) ajv.addSchema(c.schema, c.key);
    const code = standaloneCode(ajv, Object.fromEntries(group.map((c) => [c.key, c.key])));
    return (
      `(() => {\nconst module = { exports: {} };\nconst exports = module.exports;\n${code}\nreturn ` +
      `module.exports;\n})()`
    );
  });
  return [
    '// Written by scripts/build-mock.ts from spec/openapi.yaml: see spec/built.ts.',
    "import { createRequire } from 'node:module';",
    // The standalone code requires ajv's small runtime helpers (and ajv-formats' formats), not ajv.
    'const require = createRequire(import.meta.url);',
    'export const BUILT_SPEC = {',
    `  sha256: ${JSON.stringify(createHash('sha256').update(text).digest('hex'))},`,
    `  json: ${JSON.stringify(JSON.stringify(doc))},`,
    `  validators: Object.freeze(Object.assign({}, ${parts.join(',\n')})),`,
    '};',
    '',
  ].join('\n');
}

/** The generator's built module: its fingerprint and where the datasets generated here are. */
function datasetsModule(): string {
  return [
    '// Written by scripts/build-mock.ts: see mocks/dataset/built.ts.',
    "import { fileURLToPath } from 'node:url';",
    `export const BUILT_DATASETS = { generator: ${JSON.stringify(generatorFingerprint())}, dir: ` +
      `fileURLToPath(new URL(${JSON.stringify(`./${DATASETS}/`)}, import.meta.url)) };`,
    '',
  ].join('\n');
}

/**
 * What the build gives spec/built.ts and mocks/dataset/built.ts (a second
 * or so: parsing, compiling, generating a sample); `selfCheck`: see specModule.
 */
export function builtModules(options: { selfCheck?: boolean } = {}): BuiltModules {
  return { 'spec/built.ts': specModule(options.selfCheck === true), 'mocks/dataset/built.ts': datasetsModule() };
}

/** A program of this package as esbuild bundles it: one ES module for Node 20, its dependencies left as imports. */
export const NODE_PROGRAM = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
} as const satisfies BuildOptions;

/**
 * How a bundle of the mock is built (this one, and the library entry's): a Node program with the built modules in
 * place of their stubs.
 */
export function bundleOptions(modules: BuiltModules) {
  return { ...NODE_PROGRAM, plugins: [builtPlugin(modules)] } as const satisfies BuildOptions;
}

/** An esbuild plugin that bundles the built modules in place of their stubs. */
export function builtPlugin(modules: BuiltModules): Plugin {
  return {
    name: 'built-modules',
    setup(b) {
      b.onLoad({ filter: /[\\/](spec|mocks[\\/]dataset)[\\/]built\.ts$/ }, (args) => {
        const contents = modules[relative(ROOT, args.path).split('\\').join('/') as keyof BuiltModules];
        return contents === undefined ? undefined : { contents, loader: 'js', resolveDir: ROOT };
      });
    },
  };
}

/** The default dataset, generated and sorted, as a snapshot in `dir` (emptied first). */
function writeDefaultDataset(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  const { seed, servers: count, cleanData: clean } = DEFAULT_OPTIONS;
  // Snapshots store ages, not times: any clock gives the same file.
  const now = Date.now();
  const dataset = generateDataset({ seed, count, clean, now: new Date(now) });
  writeSnapshot(
    dir,
    { generator: generatorFingerprint(), seed, count, clean },
    dataset,
    sortOrders(dataset, sortRuleOf(loadModel().byId.get('findServers'))),
    Math.floor(now / 1000) * 1000,
  );
}

/** What dist/mock.inputs.json holds: the bundle and each file it was built from, by the sha256 of their content. */
export interface BuildRecord {
  bundle: { file: string; sha256: string };
  inputs: { path: string; sha256: string }[];
}

const sha256 = (content: string | Uint8Array) => createHash('sha256').update(content).digest('hex');

/** What the build reads besides the bundled sources: the spec, this script, the dependencies' versions. */
const READ_BESIDES = ['spec/openapi.yaml', 'scripts/build-mock.ts', 'package.json', 'package-lock.json'];

/** The sha256 of each of these files (by path in the repository) that is there. */
function hashFiles(paths: Iterable<string>): Map<string, string> {
  const out = new Map<string, string>();
  for (const p of paths) {
    const file = join(ROOT, p);
    if (existsSync(file)) out.set(p, sha256(readFileSync(file)));
  }
  return out;
}

/** The inputs an earlier build in `outDir` recorded, to hash before this one reads them. */
function recordedInputs(outDir: string): string[] {
  try {
    const record = JSON.parse(readFileSync(join(outDir, INPUTS_FILE), 'utf8')) as Partial<BuildRecord>;
    return Array.isArray(record.inputs) ? record.inputs.map((i) => i.path).filter((p) => typeof p === 'string') : [];
  } catch {
    return [];
  }
}

/** An esbuild plugin that hashes each source as esbuild reads it: the record holds what was bundled. */
function hashWhatIsBundled(hashes: Map<string, string>): Plugin {
  return {
    name: 'hash-inputs',
    setup(b) {
      b.onLoad({ filter: /\.[cm]?[jt]s$/ }, (args) => {
        if (args.namespace !== 'file' || args.path.includes(`${sep}node_modules${sep}`)) return undefined;
        const contents = readFileSync(args.path);
        hashes.set(relative(ROOT, args.path).split(sep).join('/'), sha256(contents));
        return { contents, loader: args.path.endsWith('ts') ? 'ts' : 'js' };
      });
    },
  };
}

/** Builds dist/mock.mjs (or into `outDir`), its datasets and the record of what it was built from. */
export async function buildMock(outDir: string = DIST): Promise<void> {
  // Each input as the build begins (the last build's list, and what it reads besides): one saved
  // while the build runs then differs from its record, so the next start builds again.
  const before = hashFiles(new Set([...recordedInputs(outDir), ...READ_BESIDES]));
  mkdirSync(outDir, { recursive: true });
  const modules = builtModules();
  writeDefaultDataset(join(outDir, DATASETS));
  const bundled = new Map<string, string>();
  const options = bundleOptions(modules);
  const outfile = join(outDir, 'mock.mjs');
  const result = await build({
    entryPoints: [join(ROOT, 'mocks/node/cli.ts')],
    outfile,
    ...options,
    plugins: [...options.plugins, hashWhatIsBundled(bundled)],
    metafile: true,
    absWorkingDir: ROOT,
  });
  // Everything a rebuild would read: the bundled sources (the built modules' stubs too), and what it reads besides.
  const paths = [
    ...Object.keys(result.metafile.inputs).map((p) => relative(ROOT, resolve(ROOT, p)).split(sep).join('/')),
    ...READ_BESIDES.filter((p) => existsSync(join(ROOT, p))),
  ];
  const record: BuildRecord = {
    bundle: { file: 'mock.mjs', sha256: sha256(readFileSync(outfile)) },
    inputs: [...new Set(paths)].sort().map((path) => ({
      path,
      sha256: before.get(path) ?? bundled.get(path) ?? sha256(readFileSync(join(ROOT, path))),
    })),
  };
  writeFileSync(join(outDir, INPUTS_FILE), `${JSON.stringify(record, null, 1)}\n`);
}

const FLAGS = {
  out: {
    type: 'string',
    value: 'DIR',
    default: 'dist',
    help: 'where to write mock.mjs, datasets/ and mock.inputs.json',
  },
  help: { type: 'boolean', short: 'h', help: 'show this help' },
} as const satisfies FlagTable;

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = programFlags('build-mock', 'Usage: npm run build -- [options]', FLAGS);
  await buildMock(resolve(args.out));
}
