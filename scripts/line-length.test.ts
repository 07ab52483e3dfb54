import { mkdtempSync, writeFileSync } from 'node:fs';
import { execFileSync, spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { longLinesOf, MAX_LINE, trackedSources } from './line-length.ts';

const SCRIPT = new URL('./line-length.ts', import.meta.url).pathname;
// The tsx of this checkout, wherever the test's repository is.
const TSX = createRequire(import.meta.url).resolve('tsx/cli');

describe('line-length', () => {
  it('counts characters, not bytes: 120 accented letters are one line of 120', () => {
    expect(longLinesOf('a.ts', `${'é'.repeat(MAX_LINE)}\n${'x'.repeat(MAX_LINE + 1)}\r\n`)).toEqual([
      { file: 'a.ts', line: 2, length: MAX_LINE + 1 },
    ]);
  });

  it('holds the tracked sources of a repository, YAML included, markdown and the lockfile not', () => {
    const dir = mkdtempSync(join(tmpdir(), 'line-length-'));
    const long = 'x'.repeat(MAX_LINE + 1);
    writeFileSync(join(dir, 'ok.ts'), 'const a = 1;\n');
    writeFileSync(join(dir, 'spec.yaml'), `description: ${long}\n`);
    writeFileSync(join(dir, 'README.md'), `${long}\n`);
    writeFileSync(join(dir, 'package-lock.json'), `"${long}"\n`);
    execFileSync('git', ['init', '-q'], { cwd: dir });
    execFileSync('git', ['add', '.'], { cwd: dir });
    expect(trackedSources(dir).sort()).toEqual(['ok.ts', 'spec.yaml']);
    const run = spawnSync(process.execPath, [TSX, SCRIPT], { cwd: dir, encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`spec.yaml:1: ${MAX_LINE + 14} characters (at most ${MAX_LINE})`);
  });
});
