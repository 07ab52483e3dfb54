// `server-listing-contract diff` as a program, in a git repository made for the test:
// the example of contract-tests/README.md (the working copy against `main`, weighed by the
// usage profile the mock wrote of a test run, failing on a breaking change) prints exactly
// what the manual shows,
// and a ref git cannot read exits 2 saying so.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, test } from 'vitest';
import { jsYaml, loadSpec, SPEC_PATH } from '../spec/load.ts';
import { createMock } from '../mocks/node/in-process.ts';
import { REPO } from './helpers.ts';

const CLI = join(REPO, 'contract-tests/cli.ts');
const TSX = pathToFileURL(join(REPO, 'node_modules/tsx/dist/loader.mjs')).href;

/** `server-listing-contract <args>` in `cwd`, as a process. */
function contract(args: string[], cwd: string) {
  return spawnSync(process.execPath, ['--import', TSX, CLI, ...args], { cwd, encoding: 'utf8', timeout: 60_000 });
}

/** The block the manual shows after `<!-- example: name -->`. */
function manualExample(name: string): { command: string; output: string } {
  const text = readFileSync(join(REPO, 'contract-tests/README.md'), 'utf8');
  const at = text.indexOf(`<!-- example: ${name} -->`);
  const blocks = [...text.slice(at).matchAll(/```\w*\n([\s\S]*?)```/g)].slice(0, 2).map((m) => m[1]!);
  return { command: blocks[0]!.trim(), output: blocks[1]! };
}

/** A clone-like repository: the spec committed on main, then edited in the working copy. */
function repository(edit: (doc: any) => void): string {
  const repo = mkdtempSync(join(tmpdir(), 'spec-repo-'));
  mkdirSync(join(repo, 'spec'));
  writeFileSync(join(repo, 'spec/openapi.yaml'), readFileSync(SPEC_PATH, 'utf8'));
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], {
      cwd: repo,
      stdio: 'pipe',
    });
  git('init', '-q', '-b', 'main');
  git('add', '.');
  git('commit', '-qm', 'the spec');
  const doc = loadSpec();
  edit(doc);
  writeFileSync(join(repo, 'spec/openapi.yaml'), jsYaml().dump(doc));
  return repo;
}

test("the manual's example: the working copy against main, weighed by what the web frontend sent", async () => {
  const repo = repository((d) => {
    const find = d.paths['/servers/find'].get;
    const dropped = ['#/components/parameters/countryFilter', '#/components/parameters/org'];
    find.parameters = find.parameters.filter((p: any) => !dropped.includes(p.$ref));
  });
  // The profile the mock writes of a frontend test run: 312 searches by country, 40 by region.
  const mock = createMock({ consumer: 'web', servers: 50 });
  try {
    for (let i = 0; i < 352; i++)
      await mock.fetch(
        `https://api.example.test/api/v0.1/servers/find?${i < 312 ? 'country=Germany' : 'region=EU'}&limit=20`,
      );
    writeFileSync(join(repo, 'web.json'), JSON.stringify(mock.usage()));
  } finally {
    await mock.close();
  }
  const example = manualExample('diff');
  expect(example.command).toBe('npm run contract -- diff --base main --usage web.json --fail-on breaking');
  const run = contract(example.command.split(' ').slice(4), repo);
  expect(run.stderr).toBe('');
  expect(run.stdout).toBe(example.output);
  expect(run.status).toBe(1);
});

test('a ref git cannot read: exit 2, and what git said', () => {
  const repo = repository(() => {});
  const run = contract(['diff', '--base', 'v9'], repo);
  expect(run.status).toBe(2);
  expect(run.stdout).toBe('');
  expect(run.stderr).toMatch(
    /^contract diff: --base 'v9': no such file, and git cannot read v9:spec\/openapi\.yaml \(fatal: /,
  );
});
