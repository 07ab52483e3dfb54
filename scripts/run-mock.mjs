// `npm run mock`: the mock from dist/mock.mjs, built first (scripts/build-mock.ts) only when
// it is missing or is not what its inputs would build: dist/mock.inputs.json records the
// sha256 of the bundle and of every file it was built from (the bundled sources, the spec,
// the build script, package.json and its lock), and each is compared by its content, never
// by its time (`cp -p`, `rsync -a`, `tar x` or a clock behind keep an edited file's time
// old). Plain JavaScript on purpose: checking reads and hashes under a megabyte (a few ms),
// where a TypeScript loader and esbuild on every start cost a second. The mock then runs in
// this very process (its flags are this script's arguments; node's flags are on the npm
// script's command line).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const DIST = join(ROOT, 'dist');

/** A file's content, or undefined when it is not there. */
function contentOf(file) {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

const sha256 = (content) => createHash('sha256').update(content).digest('hex');

/** Why dist/mock.mjs must be built, or undefined when it and every file it was built from are as recorded. */
function staleness() {
  let record;
  try {
    record = JSON.parse(readFileSync(join(DIST, 'mock.inputs.json'), 'utf8'));
  } catch {
    return 'it is not built yet';
  }
  const bundle = contentOf(join(DIST, 'mock.mjs'));
  if (!bundle) return 'it is not built yet';
  if (typeof record?.bundle?.sha256 !== 'string' || !Array.isArray(record.inputs))
    return 'its record of what it was built from is from an older build';
  if (sha256(bundle) !== record.bundle.sha256) return 'dist/mock.mjs is not the bundle that was built';
  for (const input of record.inputs) {
    const content = contentOf(join(ROOT, String(input?.path)));
    if (!content) return `${input?.path} is gone`;
    if (sha256(content) !== input.sha256) return `${input.path} changed`;
  }
  return undefined;
}

const why = staleness();
if (why) {
  process.stderr.write(`mock: building dist/mock.mjs (${why})\n`);
  const build = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts/build-mock.ts')], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
await import(pathToFileURL(join(DIST, 'mock.mjs')).href);
