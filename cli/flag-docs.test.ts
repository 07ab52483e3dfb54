// What a flag table renders for people: a README's table, and the doc comments of the
// options a function takes in code.
import { describe, expect, it } from 'vitest';
import { docComment, flagsMarkdown, optionDoc, optionsInterface } from './flag-docs.ts';
import type { FlagTable } from './flags.ts';

const TABLE = {
  port: { type: 'integer', env: 'X_PORT', value: 'N', default: 4010, min: 0, max: 65535, help: 'port to listen on' },
  quiet: { type: 'boolean', env: 'X_QUIET', shown: 'off', help: 'no log', inCode: { default: true, note: 'in code' } },
  origins: {
    type: 'custom',
    value: 'LIST',
    shown: 'http://a|b',
    help: 'allowed origins',
    parse: (raw: string) => raw.split(','),
    inCode: { write: (v: string[]) => v.join(',') },
  },
  'row-cache': { type: 'integer', key: 'rowCacheMiB', min: 0, max: 9, help: 'rows kept', inCode: true },
  help: { type: 'boolean', help: 'show this help' },
} as const satisfies FlagTable;

describe('flagsMarkdown', () => {
  it('has a row per setting (not --help): flag, variable, default as code when it is a literal, help', () => {
    expect(flagsMarkdown(TABLE).split('\n')).toEqual([
      '| flag | env | default | what |',
      '|---|---|---|---|',
      '| `--port N` | `X_PORT` | `4010` | port to listen on |',
      '| `--quiet` | `X_QUIET` | off | no log |',
      '| `--origins LIST` |  | `http://a\\|b` | allowed origins |',
      '| `--row-cache` |  |  | rows kept |',
    ]);
  });
});

describe('the options of a function in code', () => {
  it("say each flag's help, the note for code, the flag and the default in code", () => {
    expect(optionDoc(TABLE, 'quiet')).toBe('No log; in code (`--quiet`, default true).');
    expect(optionDoc(TABLE, 'origins')).toBe('Allowed origins (`--origins`, default http://a|b).');
    expect(optionDoc(TABLE, 'rowCacheMiB')).toBe('Rows kept (`--row-cache`).');
    expect(() => optionDoc(TABLE, 'port')).toThrow("no flag of this table is taken in code as 'port'");
  });

  it('are declared in one interface, in the order of the table, each with its doc comment', () => {
    expect(
      optionsInterface(TABLE, {
        header: 'Written from TABLE.',
        name: 'Options',
        doc: 'What make() takes.',
        typeOf: (key) => (key === 'origins' ? 'string[]' : key === 'quiet' ? 'boolean' : 'number'),
      }),
    ).toBe(
      [
        '// Written from TABLE.',
        '/** What make() takes. */',
        'export interface Options {',
        '  /** No log; in code (`--quiet`, default true). */',
        '  quiet?: boolean;',
        '  /** Allowed origins (`--origins`, default http://a|b). */',
        '  origins?: string[];',
        '  /** Rows kept (`--row-cache`). */',
        '  rowCacheMiB?: number;',
        '}',
        '',
      ].join('\n'),
    );
  });

  it('wrap a doc comment that does not fit the width, on word boundaries', () => {
    const text = 'word '.repeat(40).trim();
    const lines = docComment(text, '  ', 60);
    expect(lines[0]).toBe('  /**');
    expect(lines.at(-1)).toBe('   */');
    expect(lines.every((l) => l.length <= 60)).toBe(true);
    expect(
      lines
        .slice(1, -1)
        .map((l) => l.replace(/^ {3}\* /, ''))
        .join(' '),
    ).toBe(text);
    expect(docComment('short', '  ', 60)).toEqual(['  /** short */']);
  });
});
