// `npm run spec:types [-- --check]`: the spec's TypeScript types, spec/openapi.gen.ts, as openapi-typescript's
// command writes them (the same options and header), with its doc comments wrapped at 120 characters like every
// source line (scripts/line-length.ts): the spec's descriptions are long lines of prose. `--check` writes nothing
// and exits 1 when the file is not what the spec generates (npm run spec:check).
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript';
import { MAX_LINE } from './line-length.ts';

const SPEC = new URL('../spec/openapi.yaml', import.meta.url);
const OUT = new URL('../spec/openapi.gen.ts', import.meta.url);

/** Doc-comment lines over the width, rewrapped at spaces; a one-line `/** ... *\/` opens into a block. */
export function wrapDocComments(text: string, max = MAX_LINE): string {
  return text
    .split('\n')
    .flatMap((line) => {
      if ([...line].length <= max) return [line];
      const block = /^(\s*)\* (.*)$/.exec(line);
      if (block) return wrap(block[2]!, `${block[1]}* `, max);
      const single = /^(\s*)\/\*\* (.*) \*\/$/.exec(line);
      if (single) return [`${single[1]}/**`, ...wrap(single[2]!, `${single[1]} * `, max), `${single[1]} */`];
      return [line];
    })
    .join('\n');
}

function wrap(text: string, prefix: string, max: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && [...prefix, ...line, ' ', ...word].length > max) {
      lines.push(prefix + line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, prefix + line];
}

export async function generatedTypes(): Promise<string> {
  const ast = await openapiTS(SPEC, { rootTypes: true, rootTypesNoSchemaPrefix: true, silent: true });
  return wrapDocComments(`${COMMENT_HEADER}${astToString(ast)}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const text = await generatedTypes();
  if (process.argv.includes('--check')) {
    if (readFileSync(OUT, 'utf8') !== text) {
      console.error('spec:types: spec/openapi.gen.ts is not what the spec generates: run npm run spec:types');
      process.exit(1);
    }
  } else writeFileSync(OUT, text);
}
