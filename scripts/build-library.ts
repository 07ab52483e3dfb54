// The package's library entry (`import { createMock } from 'server-listing-mock'`), built so
// that a test's first createMock() does not wait for V8 to compile the mock (decision 0046):
// - dist/library.js: mocks/node/in-process.ts and what it imports (Hono and lru-cache too) as
//   one classic script, a function of `require` and the entry's URL (what `import.meta.url`
//   was), with the same work built in as the mock's bundle (scripts/build-mock.ts), and the
//   validators of the mock's self-check besides, which is on under vitest;
// - dist/library.code-cache: V8's code cache of that script, made by this Node in a child
//   process after a mock has answered each operation once (scripts/library-warm-up.mjs), so
//   every function that took is compiled already when the script is loaded with it;
// - dist/index.mjs: the ES module the package exports, which runs the script with the cache
//   (node:vm) and re-exports what the script returns. V8 takes a cache only from its own
//   version with the same flags, and this module only for the very script it was made from
//   (a CRC-32 of it heads the cache): otherwise the script compiles as it runs, as an ES
//   module does, and answers the same.
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { builtModules, bundleOptions } from './build-mock.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const ENTRY = join(ROOT, 'mocks/node/in-process.ts');
export const LIBRARY_SCRIPT = 'library.js';
export const LIBRARY_CODE_CACHE = 'library.code-cache';
/** What the script calls the URL of the module that runs it (esbuild's define for `import.meta.url`). */
const URL_PARAMETER = '__libraryUrl';

/** The names in-process.ts exports (the ES module re-exports each). */
async function exportedNames(): Promise<string[]> {
  const result = await build({ ...bundleOptions(builtModules()), entryPoints: [ENTRY], write: false, metafile: true });
  return Object.values(result.metafile.outputs).flatMap((o) => o.exports);
}

/** The ES module that runs the script with its code cache. */
function entryModule(names: readonly string[]): string {
  return `// server-listing-mock: the mock in process (see mocks/README.md in this package). Its code is
// ./${LIBRARY_SCRIPT}, run here from V8's code cache of it, ./${LIBRARY_CODE_CACHE} (written by
// scripts/build-library.ts): a V8 other than the build's rejects the cache and compiles as usual.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';
import { crc32 } from 'node:zlib';

/** The script's exports. (In a function: the source and the cache are garbage once it has run.) */
function load() {
  const file = fileURLToPath(new URL('./${LIBRARY_SCRIPT}', import.meta.url));
  const source = readFileSync(file);
  let cachedData;
  try {
    const cache = readFileSync(new URL('./${LIBRARY_CODE_CACHE}', import.meta.url));
    // V8 checks its version and flags, not the source: the cache is used only with the script it was made from.
    if (cache.length > 4 && cache.readUInt32LE(0) === crc32(source)) cachedData = cache.subarray(4);
  } catch {}
  // The build keeps the script ASCII: read as Latin-1 it is a one-byte string, decoded in a fraction of UTF-8's time.
  const script = new Script(source.toString('latin1'), { filename: file, cachedData });
  return script.runInThisContext()(createRequire(file), import.meta.url);
}

const library = load();
export const { ${names.join(', ')} } = library;
`;
}

/**
 * The script is read as Latin-1 (a one-byte string); one character past ASCII would make
 * it another program. esbuild escapes them in strings, not in a regular expression's text.
 */
export function assertAscii(file: string): void {
  const text = readFileSync(file);
  const at = text.findIndex((b) => b > 0x7f);
  if (at === -1) return;
  const line = text.subarray(0, at).toString('latin1').split('\n').length;
  throw new Error(`${file}:${line}: a character past ASCII (write it as an escape, like \\u00a7, in the source)`);
}

/** Writes dist/library.js, dist/index.mjs and dist/library.code-cache (or into `outDir`). */
export async function buildLibrary(outDir: string): Promise<void> {
  // With the self-check's validators: under vitest a mock checks its answers (mocks/node/options.ts).
  const { packages: _bundleThem, ...options } = bundleOptions(builtModules({ selfCheck: true }));
  await build({
    ...options,
    entryPoints: [ENTRY],
    outfile: join(outDir, LIBRARY_SCRIPT),
    format: 'cjs',
    define: { 'import.meta.url': URL_PARAMETER },
    // Node's modules are the only ones left to require; the script returns its exports.
    banner: { js: `(function (require, ${URL_PARAMETER}) {\n"use strict";\nconst module = { exports: {} };` },
    footer: { js: 'return module.exports;\n})' },
  });
  assertAscii(join(outDir, LIBRARY_SCRIPT));
  writeFileSync(join(outDir, 'index.mjs'), entryModule(await exportedNames()));
  rmSync(join(outDir, LIBRARY_CODE_CACHE), { force: true });
  // A plain node (no tsx, no flags of this process): V8 takes a cache only under the flags it was made with.
  execFileSync(process.execPath, [join(ROOT, 'scripts/library-warm-up.mjs'), outDir], {
    env: { PATH: process.env.PATH ?? '' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}
