// The project's layers run one way: spec <- fixtures <- {mocks, contract-tests} <- scripts <- e2e.
// A module may import only from its own layer and the ones to its left, so the mock
// and the contract suite never lean on each other (the suite judges a server it does
// not share code with) and the spec never depends on what reads it. Under them all,
// `testing/` holds test support any layer's tests may use (the Chromium launcher, the
// tests' fixed instants), and `cli/` the command-line flags every program declares; neither
// imports anything of the project, so they can carry no code from one layer to another.
// Test support (`testing/`, and a layer's own `testing/` folder, as mocks/testing/) is for
// tests and tools only: production code never imports it. Imports are read
// with TypeScript's own pre-processor (static, re-exports and dynamic `import()`),
// plus `new URL('<module>.ts', import.meta.url)` references, which load code too.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

// No exception: `--start-mock` runs the mock as a program (contract-tests/run/mock-program.ts).
export const LAYERS: Record<string, readonly string[]> = {
  testing: ['testing'],
  cli: ['cli'],
  spec: ['testing', 'cli', 'spec'],
  fixtures: ['testing', 'cli', 'spec', 'fixtures'],
  mocks: ['testing', 'cli', 'spec', 'fixtures', 'mocks'],
  'contract-tests': ['testing', 'cli', 'spec', 'fixtures', 'contract-tests'],
  scripts: ['testing', 'cli', 'spec', 'fixtures', 'mocks', 'contract-tests', 'scripts'],
  // Tests that cross layers or run whole programs (the suite against the mock, the
  // CLIs, the bins, the browser): the only tests not beside the module they test.
  e2e: ['testing', 'cli', 'spec', 'fixtures', 'mocks', 'contract-tests', 'scripts', 'e2e'],
};

// Inside the mock, its rooms run one way too, as in MSW (an environment-neutral core,
// thin runtime adapters): dataset <- search <- core <- node, and the docs page, which
// core mounts, leans on none of them. So the core never reaches for the socket, the
// search never for HTTP, the dataset for nothing but itself. Tests may cross (a core
// test builds the whole mock: mocks/testing/), so these rules read only the sources.
export const MOCK_ROOMS: Record<string, readonly string[]> = {
  dataset: ['dataset'],
  search: ['dataset', 'search'],
  'docs-page': ['docs-page'],
  core: ['dataset', 'search', 'docs-page', 'core'],
  node: ['dataset', 'search', 'docs-page', 'core', 'node'],
  testing: ['dataset', 'search', 'docs-page', 'core', 'node', 'testing'],
};

/** Test support: `testing/`, or a layer's own `testing/` folder (`mocks/testing/test-app.ts`). */
export function isTestSupport(path: string): boolean {
  const [top, second] = path.split('/');
  return top === 'testing' || (second === 'testing' && top !== undefined && top in LAYERS);
}

/** A test: beside its module (`*.test.ts`, a browser or pack test, an older `*.e2e.ts`), or in e2e/. */
function isTest(path: string): boolean {
  return path.startsWith('e2e/') || /\.(test|browser|pack|e2e)\.ts$/.test(path);
}

/**
 * Production code: what the programs and the package run, every module of the layers
 * below the scripts that is neither a test nor test support. The scripts are tools (the
 * fuzzer sends raw HTTP with testing/raw-http.ts) and may use test support.
 */
const PRODUCTION = ['spec', 'fixtures', 'cli', 'mocks', 'contract-tests'];

const TEST_SUPPORT_RULE = 'production code never imports test support (testing/, <layer>/testing/)';

function isProduction(path: string): boolean {
  return PRODUCTION.includes(path.split('/')[0]!) && !isTest(path) && !isTestSupport(path);
}

export interface Violation {
  from: string;
  to: string;
  line: number;
  message: string;
}

function sourceFiles(root: string, folder: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      if (name === 'node_modules' || name.startsWith('.')) continue;
      const full = join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (/\.(m|c)?tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(full);
    }
  };
  try {
    walk(join(root, folder));
  } catch {
    // a layer folder that does not exist has nothing to check
  }
  return out;
}

/** The room of the mock a path is in (`mocks/core/app.ts` -> `core`); undefined outside them. */
function mockRoom(path: string): string | undefined {
  const [top, room] = path.split('/');
  return top === 'mocks' && room !== undefined && room in MOCK_ROOMS ? room : undefined;
}

/** Relative module references in a source text, with their 1-based lines. */
export function references(text: string): { specifier: string; line: number }[] {
  const lineOf = (pos: number) => text.slice(0, pos).split('\n').length;
  const info = ts.preProcessFile(text, true, true);
  const out = info.importedFiles.map((f) => ({ specifier: f.fileName, line: lineOf(f.pos) }));
  for (const m of text.matchAll(/new URL\(\s*(['"`])([^'"`]+\.(?:m|c)?ts)\1\s*,\s*import\.meta\.url\s*\)/g)) {
    out.push({ specifier: m[2]!, line: lineOf(m.index ?? 0) });
  }
  return out.filter((r) => r.specifier.startsWith('.'));
}

/** Every import in the tree that runs against the layers. */
export function layerViolations(root: string): Violation[] {
  const violations: Violation[] = [];
  for (const [layer, allowed] of Object.entries(LAYERS)) {
    for (const file of sourceFiles(root, layer)) {
      const from = relative(root, file).split(sep).join('/');
      for (const { specifier, line } of references(readFileSync(file, 'utf8'))) {
        const to = relative(root, resolve(dirname(file), specifier))
          .split(sep)
          .join('/');
        const target = to.split('/')[0]!;
        if (target in LAYERS && !allowed.includes(target)) {
          violations.push({
            from,
            to,
            line,
            message: `${from}:${line} imports ${to}: ${layer} may import only from ${allowed.join(', ')}`,
          });
        }
        if (isProduction(from) && isTestSupport(to)) {
          violations.push({
            from,
            to,
            line,
            message: `${from}:${line} imports ${to}: ${TEST_SUPPORT_RULE}`,
          });
        }
        const room = mockRoom(from);
        const toRoom = mockRoom(to);
        if (room && toRoom && !/\.test\.ts$/.test(from) && !MOCK_ROOMS[room]!.includes(toRoom)) {
          violations.push({
            from,
            to,
            line,
            message:
              `${from}:${line} imports ${to}: mocks/${room} may import only from ` +
              `${MOCK_ROOMS[room]!.map((r) => `mocks/${r}`).join(', ')}`,
          });
        }
      }
    }
  }
  return violations;
}
