// What a flag table renders for people to read, besides `--help` (flags.ts): the table of
// a README and the doc comments of a function's options in code. Both are written to
// files by `npm run docs:flags`, and a test fails while a file is stale.
import { type FlagTable, flagUsage, shownDefault } from './flags.ts';
import { inCodeFlags } from './options-in-code.ts';

const cell = (text: string) => text.replace(/\|/g, '\\|');
const code = (text: string) => (text ? `\`${cell(text)}\`` : '');

/** A README's table of a program's settings: flag, variable, default, what (`--help` and `--version` aside). */
export function flagsMarkdown(table: FlagTable): string {
  const rows = Object.entries(table)
    .filter(([name]) => name !== 'help' && name !== 'version')
    .map(([name, f]) => {
      const fallback = shownDefault(f);
      // A default without spaces is a literal value (`4010`, a path, origins with `*`): set as code.
      const shown =
        fallback === undefined ? '' : f.type !== 'boolean' && !fallback.includes(' ') ? code(fallback) : cell(fallback);
      return `| ${code(flagUsage(name, f))} | ${code(f.env ?? '')} | ${shown} | ${cell(f.help)} |`;
    });
  return ['| flag | env | default | what |', '|---|---|---|---|', ...rows].join('\n');
}

/** What an option's doc comment says: its flag's help, the note for code, the flag and the default. */
export function optionDoc(table: FlagTable, key: string): string {
  const flag = inCodeFlags(table).get(key);
  if (!flag) throw new Error(`no flag of this table is taken in code as '${key}'`);
  const { name, spec, inCode } = flag;
  const fallback = 'default' in inCode ? String(inCode.default) : shownDefault(spec);
  const text = `${spec.help}${inCode.note ? `; ${inCode.note}` : ''}`;
  const shown = fallback === undefined || fallback === 'off' ? '' : `, default ${fallback}`;
  return `${text[0]!.toUpperCase()}${text.slice(1)} (\`--${name}\`${shown}).`;
}

/** A doc comment at `indent`, on one line when it fits in `width`, else wrapped. */
export function docComment(text: string, indent: string, width = 120): string[] {
  const one = `${indent}/** ${text} */`;
  if (one.length <= width) return [one];
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && `${indent} * ${line} ${word}`.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return [`${indent}/**`, ...lines.map((l) => `${indent} * ${l}`), `${indent} */`];
}

export interface OptionsInterface {
  /** The file's first comment: where it comes from. */
  header: string;
  /** The interface's name and doc comment. */
  name: string;
  doc: string;
  /** Each option's type as TypeScript writes it (`number | { min: number; max: number }`). */
  typeOf: (key: string) => string;
}

/**
 * A TypeScript module declaring the options a function takes in code, each with its doc
 * comment: what a package's users see in their editor and in its `.d.ts`.
 */
export function optionsInterface(table: FlagTable, what: OptionsInterface): string {
  const members = [...inCodeFlags(table).keys()].flatMap((key) => [
    ...docComment(optionDoc(table, key), '  '),
    `  ${key}?: ${what.typeOf(key)};`,
  ]);
  return [
    ...what.header.split('\n').map((l) => `// ${l}`),
    ...docComment(what.doc, ''),
    `export interface ${what.name} {`,
    ...members,
    '}',
    '',
  ].join('\n');
}
