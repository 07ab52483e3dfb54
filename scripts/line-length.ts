// `tsx scripts/line-length.ts` (run by `npm run lint`, so by `npm test`): no line of a source file the repository
// tracks is over 120 characters. Biome's formatter keeps code to that width, but it never breaks a string, a
// comment, a regular expression or YAML; this check holds those too. Markdown is prose and not held to it.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

export const MAX_LINE = 120;
const SOURCE = /\.(ts|mts|cts|js|mjs|cjs|json|ya?ml)$/;
/** Written by npm, not by us. */
const NOT_OURS = new Set(['package-lock.json']);

export interface LongLine {
  file: string;
  line: number;
  length: number;
}

/** Lines of one text over the width, counted in characters as an editor shows them (code points). */
export function longLinesOf(file: string, text: string, max = MAX_LINE): LongLine[] {
  const out: LongLine[] = [];
  text.split('\n').forEach((line, i) => {
    const length = [...line.replace(/\r$/, '')].length;
    if (length > max) out.push({ file, line: i + 1, length });
  });
  return out;
}

export function trackedSources(cwd = process.cwd()): string[] {
  const files = execFileSync('git', ['ls-files', '-z'], { cwd, encoding: 'utf8' }).split('\0');
  return files.filter((f) => SOURCE.test(f) && !NOT_OURS.has(f));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const long = trackedSources().flatMap((f) => {
    try {
      return longLinesOf(f, readFileSync(f, 'utf8'));
    } catch {
      return []; // a file deleted in the working copy but not yet from the index
    }
  });
  for (const l of long) console.error(`${l.file}:${l.line}: ${l.length} characters (at most ${MAX_LINE})`);
  if (long.length) {
    console.error(`line-length: ${long.length} line(s) over ${MAX_LINE} characters; break the string or comment`);
    process.exit(1);
  }
}
