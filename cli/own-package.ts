// This package's name and version, for `--version`, the mock's banner and /__mock/info,
// and the contract suite's report header. Read from the nearest package.json above this
// module: the repository's from cli/ (tsx, vitest), the installed package's from a bundle
// in dist/. Read once, on first use.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface OwnPackage {
  name: string;
  version: string;
}

let own: OwnPackage | undefined;

export function ownPackage(): OwnPackage {
  if (!own) {
    for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
      try {
        const { name, version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as OwnPackage;
        own = { name, version };
        break;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || dirname(dir) === dir) throw err;
      }
    }
  }
  return own;
}
