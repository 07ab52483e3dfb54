// `npm run docs:flags`: writes the mock's flag table into mocks/README.md, between
// <!-- flags:start --> and <!-- flags:end -->, rendered from the flag definitions in
// mocks/options.ts (the same ones `--help` prints). mocks/options.test.ts fails while
// the README's table differs from what this writes.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { flagsMarkdown } from '../mocks/options.ts';

const README = fileURLToPath(new URL('../mocks/README.md', import.meta.url));
const START = '<!-- flags:start -->';
const END = '<!-- flags:end -->';
const MARKERS = /<!-- flags:start -->[\s\S]*?<!-- flags:end -->/;

const text = readFileSync(README, 'utf8');
if (!MARKERS.test(text)) {
  console.error('docs:flags: mocks/README.md has no <!-- flags:start --> / <!-- flags:end --> markers');
  process.exit(1);
}
const updated = text.replace(MARKERS, () => `${START}\n${flagsMarkdown()}\n${END}`);
if (updated === text) {
  console.log('docs:flags: mocks/README.md flag table is up to date');
} else {
  writeFileSync(README, updated);
  console.log('docs:flags: mocks/README.md flag table updated');
}
