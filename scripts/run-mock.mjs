// `npm run mock`: the mock from dist/mock.mjs, built first (scripts/build-mock.ts) only when
// it is missing or a file it was built from is newer than it (dist/mock.inputs.json lists
// them: the bundled sources, the spec, the build script, package.json and its lock). Plain
// JavaScript on purpose: checking costs a few file stats, where a TypeScript loader and
// esbuild on every start cost a second. The mock then runs in this very process (its
// flags are this script's arguments; node's flags are on the npm script's command line).
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const DIST = join(ROOT, 'dist');

/** Why dist/mock.mjs must be built, or undefined when no file it was built from changed since the build began reading them. */
function staleness() {
  const built = statSync(join(DIST, 'mock.mjs'), { throwIfNoEntry: false });
  let list;
  try {
    list = JSON.parse(readFileSync(join(DIST, 'mock.inputs.json'), 'utf8'));
  } catch {
    list = undefined;
  }
  if (!built || !Array.isArray(list?.inputs)) return 'it is not built yet';
  // The build's start, not the bundle's time: a file saved while the build ran may not be in it.
  const since = typeof list.startedAt === 'number' ? list.startedAt : built.mtimeMs;
  for (const input of list.inputs) {
    const file = statSync(join(ROOT, input), { throwIfNoEntry: false });
    if (!file) return `${input} is gone`;
    if (file.mtimeMs > since) return `${input} changed`;
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
