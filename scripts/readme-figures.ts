// Latest figures go into scripts/README.md between a pair of markers
// (`<!-- bench:start -->` ... `<!-- bench:end -->`), written by the script that measured them.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Replaces the text between `<!-- name:start -->` and `<!-- name:end -->` in
 * scripts/README.md; false when the markers are missing.
 */
export function replaceReadmeFigures(name: string, text: string): boolean {
  const path = fileURLToPath(new URL('./README.md', import.meta.url));
  const readme = readFileSync(path, 'utf8');
  const re = new RegExp(`(<!-- ${name}:start -->\\n)[\\s\\S]*?(\\n<!-- ${name}:end -->)`);
  if (!re.test(readme)) return false;
  writeFileSync(
    path,
    readme.replace(re, (_m, start: string, end: string) => `${start}${text}${end}`),
  );
  return true;
}
