// `npm run docs:flags`: writes the generated tables of mocks/README.md between their
// markers: the flag table (<!-- flags:start --> ... <!-- flags:end -->) from the flag
// definitions in mocks/node/options.ts (the same ones `--help` prints), and the real-world
// gap rates (<!-- gaps:start --> ... <!-- gaps:end -->) from mocks/dataset/real-world-gaps.ts.
// mocks/node/options.test.ts and mocks/dataset/real-world-gaps.test.ts fail while a table is stale.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { flagsMarkdown } from '../mocks/node/options.ts';
import { gapRatesMarkdown } from '../mocks/dataset/real-world-gaps.ts';

const README = fileURLToPath(new URL('../mocks/README.md', import.meta.url));
const TABLES: [name: string, render: () => string][] = [
  ['flags', flagsMarkdown],
  ['gaps', gapRatesMarkdown],
];

let text = readFileSync(README, 'utf8');
const before = text;
for (const [name, render] of TABLES) {
  const markers = new RegExp(`<!-- ${name}:start -->[\\s\\S]*?<!-- ${name}:end -->`);
  if (!markers.test(text)) {
    console.error(`docs:flags: mocks/README.md has no <!-- ${name}:start --> / <!-- ${name}:end --> markers`);
    process.exit(1);
  }
  text = text.replace(markers, () => `<!-- ${name}:start -->\n${render()}\n<!-- ${name}:end -->`);
}
if (text === before) {
  console.log('docs:flags: the tables in mocks/README.md are up to date');
} else {
  writeFileSync(README, text);
  console.log('docs:flags: mocks/README.md tables updated');
}
