// `npm pack`, then `npm install <tarball>` in an empty folder, as someone without a clone
// would: both bins work from any directory, find the spec and the fixtures beside
// themselves, write their reports to the directory they run in, and need no TypeScript
// loader (tsx is removed from the installed tree before they run).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('../', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'installed-package-'));
/** Where the bins run: inside the install folder, but neither the package nor the repository. */
const work = join(root, 'work');
const bin = (name: string) => join(root, 'node_modules/.bin', name);
let tarball = '';

function npm(args: string[], cwd: string): string {
  return execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, npm_config_loglevel: 'error' } });
}

/** Runs a bin to the end; the contract bin's CONTRACT_* variables are cleared so it decides from the target alone. */
function run(file: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('CONTRACT_')));
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd: work, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

beforeAll(() => {
  // prepack builds the bundles the bins run.
  const packed = JSON.parse(npm(['pack', '--json', '--pack-destination', root], REPO)) as { filename: string; files: { path: string }[] }[];
  tarball = join(root, packed[0]!.filename);
  npm(['install', tarball, '--no-audit', '--no-fund', '--prefer-offline'], root);
  rmSync(join(root, 'node_modules/tsx'), { recursive: true, force: true });
  mkdirSync(work);
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the package, installed from its tarball', () => {
  it('holds the bins, their bundles, the spec, the fixtures and the manuals, and no source', () => {
    const files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).split('\n').filter(Boolean).map((f) => f.replace(/^package\//, '')).sort();
    expect(files).toEqual([
      'README.md', 'bin/server-listing-contract.mjs', 'bin/server-listing-mock.mjs', 'contract-tests/README.md', 'dist/contract.mjs', 'dist/dredd-hooks.cjs',
      'dist/mock.mjs', 'fixtures/auth.json', 'mocks/README.md', 'package.json', 'spec/openapi.yaml',
    ]);
    expect(existsSync(join(root, 'node_modules/tsx'))).toBe(false);
  });

  it('server-listing-mock --help and server-listing-contract --help', async () => {
    const mock = await run(bin('server-listing-mock'), ['--help']);
    expect(mock.code, mock.stderr).toBe(0);
    expect(mock.stdout).toMatch(/^Usage: .*server-listing-mock \[options\]/);
    const contract = await run(bin('server-listing-contract'), ['--help']);
    expect(contract.code, contract.stderr).toBe(0);
    expect(contract.stdout).toMatch(/^Usage: server-listing-contract --base-url <url> \[options\]/);
    expect(contract.stdout).toContain('--start-mock');
  });

  it('server-listing-contract --start-mock tests the installed mock and writes its reports here', async () => {
    const result = await run(bin('server-listing-contract'), ['--start-mock']);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^ {2}target: server-listing-mock \d+\.\d+\.\d+ \(seed 1337, 1000 servers\)$/m);
    expect(result.stdout).toMatch(/^PASSED: \d+ checks run, 0 failed/m);
    for (const report of ['contract-report.json', 'contract-junit.xml', 'contract-report.html', 'contract-summary.md', 'contract-dredd.log']) expect(existsSync(join(work, 'reports', report)), report).toBe(true);
    expect(readFileSync(join(work, 'reports/contract-junit.xml'), 'utf8')).toMatch(/<testsuites name="contract" tests="\d+" failures="0"/);
  });

  it('server-listing-mock serves the API, says what it is, and serves its docs', async () => {
    const child = spawn(bin('server-listing-mock'), ['--port', '0', '--quiet'], { cwd: work });
    try {
      const baseUrl = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          const url = /Mock listening on (\S+)/.exec(out)?.[1];
          if (url) resolve(url);
        });
        child.on('exit', (code) => reject(new Error(`the mock exited (${code}): ${out}`)));
      });
      const origin = new URL(baseUrl).origin;
      expect(await (await fetch(`${origin}/__mock/info`)).json()).toMatchObject({ name: 'server-listing-mock', version: expect.any(String), seed: 1337, servers: 1000 });
      expect((await (await fetch(`${baseUrl}/servers/find?limit=2`)).json()).results).toHaveLength(2);
      expect((await fetch(`${origin}/__mock/docs`)).status).toBe(200);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
