// `npm run fixtures:export` writes a dataset the mock's `--data` loader accepts as it is.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loadDataset } from '../mocks/dataset/data-file.ts';
import { generateServers } from '../mocks/dataset/generator.ts';
import { NOW_ISO } from '../testing/instants.ts';

const run = promisify(execFile);
const SCRIPT = new URL('../scripts/export-fixtures.ts', import.meta.url).pathname;

describe('export-fixtures', () => {
  it('writes the generated servers of a seed as a db.json that --data loads back unchanged', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'slm-export-')), 'db.json');
    const { stdout } = await run(process.execPath, [
      '--import',
      'tsx',
      SCRIPT,
      '--seed',
      '9',
      '--servers',
      '25',
      '--now',
      NOW_ISO,
      '--out',
      out,
    ]);
    expect(stdout).toContain(`wrote 25 servers (seed 9, now ${NOW_ISO}) to ${out}`);
    expect(JSON.parse(readFileSync(out, 'utf8')).servers).toHaveLength(25);
    expect(loadDataset(out)).toEqual(generateServers({ seed: 9, count: 25, now: new Date(NOW_ISO) }));
  });

  it('refuses a bad flag with the reason and exit 2', async () => {
    const err = await run(process.execPath, ['--import', 'tsx', SCRIPT, '--servers', 'many']).catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect(err).toMatchObject({ code: 2 });
    expect((err as { stderr: string }).stderr).toMatch(
      /^export-fixtures: --servers must be an integer from 0 to 5000000, got 'many'$/m,
    );
  });
});
