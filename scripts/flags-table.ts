// `npm run docs:flags`: writes what is rendered from the mock's flag table and its gap
// rates: the flag table of mocks/README.md (<!-- flags:start --> ... <!-- flags:end -->)
// and createMock's options (mocks/node/create-mock-options.gen.ts), both from FLAGS in
// mocks/node/options.ts (the same table `--help` prints), and the real-world gap rates
// (<!-- gaps:start --> ... <!-- gaps:end -->) from mocks/dataset/real-world-gaps.ts.
// mocks/node/options.test.ts and mocks/dataset/real-world-gaps.test.ts fail while one is stale.
// And the shipped fixtures as typed constants (fixtures/auth.gen.ts; fixtures/typed.test.ts).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { loadFixtures } from '../fixtures/load.ts';
import { typedFixturesSource } from '../fixtures/typed.ts';
import { gapRatesMarkdown } from '../mocks/dataset/real-world-gaps.ts';
import { createMockOptionsSource, flagsMarkdown } from '../mocks/node/options.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const README = `${ROOT}mocks/README.md`;
const OPTIONS_MODULE = `${ROOT}mocks/node/create-mock-options.gen.ts`;
const TABLES: [name: string, render: () => string][] = [
  ['flags', flagsMarkdown],
  ['gaps', gapRatesMarkdown],
];

/**
 * Each of createMock's options' types, as the compiler derives them from the flag table
 * (OptionsInCode<typeof FLAGS>): read from a module that exists only in this program.
 */
function optionTypes(): Map<string, string> {
  const probe = `${ROOT}mocks/node/options-in-code.probe.ts`;
  const text =
    "import type { OptionsInCode } from '../../cli/flags.ts';\n" +
    "import type { FLAGS } from './options.ts';\n" +
    'export type Derived = OptionsInCode<typeof FLAGS>;\n';
  const config = ts.getParsedCommandLineOfConfigFile(
    `${ROOT}tsconfig.json`,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  )!;
  const host = ts.createCompilerHost(config.options);
  const getSourceFile = host.getSourceFile;
  host.getSourceFile = (name, version, ...rest) =>
    name === probe ? ts.createSourceFile(name, text, version) : getSourceFile.call(host, name, version, ...rest);
  const program = ts.createProgram([probe], config.options, host);
  const checker = program.getTypeChecker();
  const module = checker.getSymbolAtLocation(program.getSourceFile(probe)!)!;
  const derived = checker.getExportsOfModule(module).find((s) => s.name === 'Derived')!;
  const types = new Map<string, string>();
  for (const option of checker.getDeclaredTypeOfSymbol(derived).getProperties()) {
    const text = checker.typeToString(checker.getTypeOfSymbol(option), undefined, ts.TypeFormatFlags.NoTruncation);
    // An optional member's type holds undefined, which the interface says with `?`; a type
    // literal as Biome writes it, with no semicolon before its closing brace.
    types.set(option.name, text.replace(/ \| undefined$/, '').replace(/; }/g, ' }'));
  }
  return types;
}

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

const types = optionTypes();
const options = createMockOptionsSource((key) => {
  const type = types.get(key);
  if (type === undefined) throw new Error(`docs:flags: the compiler sees no option '${key}' in createMock's options`);
  return type;
});
if (existsSync(OPTIONS_MODULE) && readFileSync(OPTIONS_MODULE, 'utf8') === options) {
  console.log("docs:flags: createMock's options (mocks/node/create-mock-options.gen.ts) are up to date");
} else {
  writeFileSync(OPTIONS_MODULE, options);
  console.log("docs:flags: createMock's options (mocks/node/create-mock-options.gen.ts) written");
}

// The shipped fixtures as typed constants (fixtures/typed.ts), which the package exports.
const FIXTURES_MODULE = `${ROOT}fixtures/auth.gen.ts`;
const fixturesModule = typedFixturesSource(loadFixtures());
if (existsSync(FIXTURES_MODULE) && readFileSync(FIXTURES_MODULE, 'utf8') === fixturesModule) {
  console.log('docs:flags: the typed fixtures (fixtures/auth.gen.ts) are up to date');
} else {
  writeFileSync(FIXTURES_MODULE, fixturesModule);
  console.log('docs:flags: the typed fixtures (fixtures/auth.gen.ts) written');
}
