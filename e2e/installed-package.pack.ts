// `npm pack`, then `npm install <tarball>` in an empty folder, as a team without a clone
// does: the install is lean (the dependencies are exactly what the bundles load, no
// install scripts run), every bin answers --version and --help from any directory, finds
// the spec and the fixtures beside itself and writes its reports where it runs (the
// proxy bin in front of the installed mock);
// `import { createMock } from 'server-listing-mock'` answers with the server's bytes;
// `tsc` compiles a consumer's file against `server-listing-mock` and
// `server-listing-mock/types`. Dredd, an optional peer dependency, is installed half-way:
// before, the contract bin names the replay it skips; after, it replays.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOW_ISO } from '../testing/instants.ts';

const REPO = fileURLToPath(new URL('../', import.meta.url));
const OURS = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as {
  version: string;
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const root = mkdtempSync(join(tmpdir(), 'installed-package-'));
/** Where the bins run: inside the install folder, but neither the package nor the repository. */
const work = join(root, 'work');
const installed = join(root, 'node_modules/server-listing-mock');
const bin = (name: string) => join(root, 'node_modules/.bin', name);
let tarball = '';
let installLog = '';

function npm(args: string[], cwd: string): { stdout: string; stderr: string } {
  const out = spawnSyncText('npm', args, cwd);
  if (out.code !== 0) throw new Error(`npm ${args.join(' ')} exited ${out.code}: ${out.stderr}`);
  return out;
}

function spawnSyncText(file: string, args: string[], cwd: string): { code: number; stdout: string; stderr: string } {
  try {
    const stdout = execFileSync(file, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    return { code: 0, stdout, stderr: '' };
  } catch (e) {
    const err = e as { status: number; stdout: string; stderr: string };
    return { code: err.status, stdout: err.stdout, stderr: err.stderr };
  }
}

/**
 * Runs a program to the end; the contract bin's CONTRACT_* variables are cleared so it decides from the target alone.
 */
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

/** The installed mock bin on a free port; resolves with its base URL once it listens. */
async function startBin(args: string[]): Promise<{ baseUrl: string; stop(): void }> {
  const child = spawn(bin('server-listing-mock'), ['--port', '0', '--quiet', ...args], { cwd: work });
  const baseUrl = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const url = /Mock listening on (\S+)/.exec(out)?.[1];
      if (url) resolve(url);
    });
    child.on('exit', (code) => reject(new Error(`the mock exited (${code}): ${out}`)));
  });
  return { baseUrl, stop: () => child.kill('SIGTERM') };
}

beforeAll(() => {
  // prepack builds the bundles the bins run, the library entry and its declarations.
  const packed = JSON.parse(npm(['pack', '--json', '--pack-destination', root], REPO).stdout) as { filename: string }[];
  tarball = join(root, packed[0]!.filename);
  writeFileSync(
    join(root, 'package.json'),
    JSON.stringify({ name: 'a-frontend', version: '1.0.0', private: true, type: 'module' }),
  );
  const out = spawnSyncText('npm', ['install', tarball, '--no-audit', '--no-fund', '--prefer-offline'], root);
  if (out.code !== 0) throw new Error(`npm install exited ${out.code}: ${out.stderr}`);
  installLog = out.stdout + out.stderr;
  mkdirSync(work);
});

afterAll(() => process.env.KEEP_PACK_DIR || rmSync(root, { recursive: true, force: true }));

describe('the package, installed from its tarball', () => {
  it(
    'holds the bins, their bundles, the library entry and its types, the default dataset, the docs assets, the ' +
      'spec, the fixtures and the manuals, and no source',
    () => {
      const files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' })
        .split('\n')
        .filter(Boolean)
        .map((f) => f.replace(/^package\//, ''))
        .sort();
      // The default dataset, generated when the package was built (its name is a hash of its key).
      const dataset = files.filter((f) => /^dist\/datasets\/servers-[0-9a-f]{20}\.snap$/.test(f));
      expect(dataset).toHaveLength(1);
      expect(files).toEqual([
        'LICENSE',
        'README.md',
        'bin/server-listing-contract.mjs',
        'bin/server-listing-mock.mjs',
        'bin/server-listing-proxy.mjs',
        'contract-tests/README.md',
        'dist/contract.mjs',
        ...dataset,
        'dist/dredd-hooks.cjs',
        'dist/index.d.ts',
        'dist/index.mjs',
        'dist/library.code-cache',
        'dist/library.js',
        'dist/mock.mjs',
        'dist/msw.d.ts',
        'dist/msw.mjs',
        'dist/proxy.mjs',
        'dist/swagger-ui/LICENSE',
        'dist/swagger-ui/NOTICE',
        'dist/swagger-ui/favicon-32x32.png',
        'dist/swagger-ui/swagger-ui-bundle.js',
        'dist/swagger-ui/swagger-ui.css',
        'dist/types.d.ts',
        'dist/types.mjs',
        'fixtures/auth.json',
        'mocks/README.md',
        'package.json',
        'spec/openapi.yaml',
      ]);
    },
  );

  it(
    'depends on exactly the packages its bundles load (Dredd as an optional peer), and its install runs no ' +
      'install script',
    () => {
      const loaded = new Set<string>();
      for (const bundle of ['mock.mjs', 'contract.mjs', 'proxy.mjs', 'index.mjs', 'library.js', 'msw.mjs']) {
        const code = readFileSync(join(installed, 'dist', bundle), 'utf8');
        // Static imports, import(), require(), and require through createRequire (`createRequire(url)("x")`, or
        // `(0, m.createRequire)(url)("x")` in the library's script).
        const loads = /(?:\bfrom |\bimport\(|\brequire\d*\(|\bcreateRequire\d*\)?\([^()]*\)\()"([^".][^"]*)"/g;
        for (const m of code.matchAll(loads)) {
          const spec = m[1]!;
          if (spec.startsWith('node:')) continue;
          loaded.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!);
        }
      }
      expect([...loaded].sort()).toEqual(
        [...Object.keys(OURS.dependencies), ...Object.keys(OURS.peerDependencies)].sort(),
      );
      for (const buildTool of ['esbuild', 'tsx', 'swagger-ui-dist', '@scarf/scarf', 'dredd', 'typescript'])
        expect(existsSync(join(root, 'node_modules', buildTool)), buildTool).toBe(false);
      const tree = JSON.parse(readFileSync(join(root, 'node_modules/.package-lock.json'), 'utf8')) as {
        packages: Record<string, { hasInstallScript?: boolean }>;
      };
      expect(
        Object.entries(tree.packages)
          .filter(([, p]) => p.hasInstallScript)
          .map(([name]) => name),
      ).toEqual([]);
      expect(installLog).not.toMatch(/install-scripts|scarf/i);
    },
  );

  it('every bin answers --version and --help', async () => {
    for (const name of ['server-listing-mock', 'server-listing-contract', 'server-listing-proxy']) {
      const version = await run(bin(name), ['--version']);
      expect([version.code, version.stdout, version.stderr], name).toEqual([0, `${OURS.version}\n`, '']);
    }
    const mock = await run(bin('server-listing-mock'), ['--help']);
    expect(mock.code, mock.stderr).toBe(0);
    expect(mock.stdout).toMatch(/^Usage: .*server-listing-mock \[options\]/);
    expect(mock.stdout).toContain('--version');
    const contract = await run(bin('server-listing-contract'), ['--help']);
    expect(contract.code, contract.stderr).toBe(0);
    expect(contract.stdout).toMatch(/^Usage: server-listing-contract --base-url <url> \[options\]/);
    expect(contract.stdout).toContain('--start-mock');
    const proxy = await run(bin('server-listing-proxy'), ['--help']);
    expect(proxy.code, proxy.stderr).toBe(0);
    expect(proxy.stdout).toMatch(/^Usage: server-listing-proxy --upstream <url> \[options\]/);
  });

  it(
    'server-listing-proxy in front of the installed mock: answers pass, no violation, and SIGTERM writes its ' +
      'reports here and exits 0',
    async () => {
      const mock = await startBin([]);
      const child = spawn(bin('server-listing-proxy'), ['--upstream', mock.baseUrl, '--port', '0'], { cwd: work });
      try {
        let out = '';
        child.stdout.on('data', (d: Buffer) => (out += d.toString()));
        child.stderr.on('data', (d: Buffer) => (out += d.toString()));
        const exit = new Promise<number | null>((resolve) => child.on('exit', resolve));
        const baseUrl = await new Promise<string>((resolve, reject) => {
          const look = setInterval(() => {
            const url = /Validation proxy on (\S+)/.exec(out)?.[1];
            if (url) resolve(url);
            if (url || child.exitCode !== null) clearInterval(look);
            if (child.exitCode !== null) reject(new Error(out));
          }, 50);
        });
        const direct = await (await fetch(`${mock.baseUrl}/servers/find?limit=3`)).text();
        expect(await (await fetch(`${baseUrl}/servers/find?limit=3`)).text()).toBe(direct);
        child.kill('SIGTERM');
        expect(await exit, out).toBe(0);
        expect(out).toMatch(/^PASSED: \d+ checks run, 0 failed/m);
        expect(JSON.parse(readFileSync(join(work, 'reports/proxy-report.json'), 'utf8'))).toMatchObject({
          verdict: 'passed',
          exitCode: 0,
        });
      } finally {
        child.kill('SIGKILL');
        mock.stop();
      }
    },
  );

  it(
    'server-listing-mock serves the API, says what it is, and serves its docs page with the Swagger UI files it ' +
      'ships',
    async () => {
      const mock = await startBin([]);
      try {
        const origin = new URL(mock.baseUrl).origin;
        expect(await (await fetch(`${origin}/__mock/info`)).json()).toMatchObject({
          name: 'server-listing-mock',
          version: OURS.version,
          seed: 1337,
          servers: 1000,
        });
        expect((await (await fetch(`${mock.baseUrl}/servers/find?limit=2`)).json()).results).toHaveLength(2);
        expect((await fetch(`${origin}/__mock/docs`)).status).toBe(200);
        const script = await fetch(`${origin}/__mock/docs/swagger-ui-bundle.js`);
        expect(script.status).toBe(200);
        expect(
          Buffer.from(await script.arrayBuffer()).equals(
            readFileSync(join(installed, 'dist/swagger-ui/swagger-ui-bundle.js')),
          ),
        ).toBe(true);
      } finally {
        mock.stop();
      }
    },
  );

  it("a script's createMock() gets the same bytes as the installed server for the same requests", async () => {
    const mock = await startBin(['--seed', '7', '--servers', '200', '--now', NOW_ISO]);
    try {
      const origin = new URL(mock.baseUrl).origin;
      const requests: [string, RequestInit?][] = [
        ['/api/v0.1/servers/find?limit=3&sort=users'],
        ['/api/v0.1/servers/find?limit=abc'],
        ['/api/v0.1/metadata/versions'],
        [
          '/api/v0.1/user/apikeys',
          { headers: { Authorization: 'Bearer sls_test_valid0000000000000000000000000000000a11ce' } },
        ],
        ['/api/v0.1/user/apikeys'],
        ['/api/v0.1/servers/find', { method: 'DELETE' }],
        ['/api/v0.1/nope'],
        ['/__mock/info'],
      ];
      // The same requests from a consumer's script, in process: its answers as JSON.
      writeFileSync(
        join(work, 'in-process.mjs'),
        `
import { createMock, credentials } from 'server-listing-mock';
import auth from 'server-listing-mock/fixtures/auth.json' with { type: 'json' };
// The typed constants are the shipped file's credentials, and the exports map lets a consumer read that file.
if (JSON.stringify(Object.values(credentials)) !== JSON.stringify(auth.credentials)) {
  throw new Error('credentials differ');
}
// The server's row cache (64 MiB) rather than createMock's 8, for /__mock/info to say the same.
const mock = createMock({ seed: 7, servers: 200, now: '${NOW_ISO}', rowCacheMiB: 64 });
const answers = [];
for (const [path, init] of ${JSON.stringify(requests)}) {
  const res = await mock.fetch(new Request('${origin}' + path, init));
  const body = Buffer.from(await res.arrayBuffer()).toString('base64');
  answers.push({ status: res.status, headers: [...res.headers], body });
}
await mock.close();
console.log(JSON.stringify(answers));
`,
      );
      const script = await run(process.execPath, ['in-process.mjs']);
      expect(script.code, script.stderr).toBe(0);
      const inProcess = JSON.parse(script.stdout) as unknown[];
      const overSocket: Answer[] = [];
      for (const [path, init] of requests) {
        const res = await fetch(`${origin}${path}`, init);
        const headers: [string, string][] = [];
        res.headers.forEach(
          (value, name) =>
            void (
              ['date', 'connection', 'keep-alive', 'transfer-encoding'].includes(name) || headers.push([name, value])
            ),
        );
        overSocket.push({ status: res.status, headers, body: Buffer.from(await res.arrayBuffer()).toString('base64') });
      }
      // /__mock/info says the V8 flags its process set: the installed server's (decision 0049), none in a script's.
      const info = requests.findIndex(([path]) => path === '/__mock/info');
      expect(flagsOut(overSocket, info)).toEqual(['--no-allocation-site-pretenuring']);
      expect(flagsOut(inProcess as Answer[], info)).toEqual([]);
      expect(inProcess).toEqual(overSocket);
    } finally {
      mock.stop();
    }
  });

  it(
    "tsc compiles a consumer's file against the package's types (node16, nodenext and bundler resolution), and " +
      'refuses a wrong one',
    () => {
      const ts = join(REPO, 'node_modules/typescript/bin/tsc');
      writeFileSync(
        join(work, 'uses-types.mts'),
        `
import { createMock, type CreateMockOptions, type InProcessMock } from 'server-listing-mock';
import type { FindResponse, Server, paths } from 'server-listing-mock/types';

const options: CreateMockOptions = { seed: 7, now: new Date(), latency: { min: 0, max: 5 } };
const mock: InProcessMock = createMock(options);
type FindQuery = NonNullable<paths['/servers/find']['get']['parameters']['query']>;
const query: FindQuery = { limit: 5, region: 'EU' };
export async function firstServer(): Promise<Server | undefined> {
  const url = \`https://api.example.test\${mock.basePath}/servers/find?limit=\${query.limit}\`;
  const res: Response = await mock.fetch(url);
  const page = (await res.json()) as FindResponse;
  mock.reset();
  await mock.close();
  return page.results[0];
}
`,
      );
      writeFileSync(
        join(work, 'wrong-types.mts'),
        `
import type { Server } from 'server-listing-mock/types';
import { createMock } from 'server-listing-mock';
export const server: Server = { address: 42 };
createMock({ seeds: 1 });
`,
      );
      for (const [module, resolution] of [
        ['node16', 'node16'],
        ['nodenext', 'nodenext'],
        ['esnext', 'bundler'],
      ] as const) {
        // A frontend's settings: DOM types (Request, Response), no Node types, and our declarations checked too.
        const config = (file: string) => {
          const path = join(work, `tsconfig.${resolution}.${file}.json`);
          writeFileSync(
            path,
            JSON.stringify({
              compilerOptions: {
                noEmit: true,
                strict: true,
                module,
                moduleResolution: resolution,
                target: 'es2022',
                lib: ['es2022', 'dom'],
                types: [],
                skipLibCheck: false,
              },
              files: [file],
            }),
          );
          return path;
        };
        // A module it cannot resolve, or resolves to no types, is an error under strict (TS2307, TS7016).
        const ok = spawnSyncText(process.execPath, [ts, '-p', config('uses-types.mts')], work);
        expect(ok, `${resolution}: ${ok.stdout}`).toMatchObject({ code: 0 });
        if (resolution !== 'nodenext') continue;
        // The types are the spec's and the entry's, not `any`.
        const wrong = spawnSyncText(process.execPath, [ts, '-p', config('wrong-types.mts')], work);
        expect(wrong.code, resolution).not.toBe(0);
        expect(wrong.stdout).toMatch(
          /wrong-types\.mts\(4,\d+\): error TS2322: Type 'number' is not assignable to type 'string'/,
        );
        expect(wrong.stdout).toMatch(
          new RegExp(
            String.raw`wrong-types\.mts\(5,\d+\): error TS2561: Object literal may only specify known` +
              ` properties, but 'seeds' does not exist in type 'CreateMockOptions'`,
          ),
        );
      }
    },
  );

  it(
    'server-listing-contract --start-mock without Dredd (an optional peer): the replay is a named skip, which ' +
      'fails the run under --strict',
    async () => {
      const result = await run(bin('server-listing-contract'), ['--start-mock']);
      expect(result.code, result.stdout + result.stderr).toBe(0);
      expect(result.stdout).toMatch(/^ {2}target: server-listing-mock \d+\.\d+\.\d+ \(seed 1337, 1000 servers\)$/m);
      expect(result.stdout).toMatch(/^PASSED: \d+ checks run, 0 failed, \d+ skipped/m);
      expect(result.stdout).toContain(
        "skipped: Dredd replays each operation's documented success (Dredd is not installed (an optional peer " +
          'dependency of server-listing-mock): npm install -D dredd@14.1.0 beside it to replay, or --dredd off)',
      );
      expect(existsSync(join(work, 'reports/contract-dredd.log'))).toBe(false);
      const strict = await run(bin('server-listing-contract'), ['--start-mock', '--strict']);
      expect(strict.code, strict.stdout).toBe(1);
      expect(strict.stdout).toMatch(
        /^FAILED: \d+ checks run, 0 failed, \d+ skipped \(\d+ unavoidable\); 1 skip fails the run under --strict$/m,
      );
      for (const report of [
        'contract-report.json',
        'contract-junit.xml',
        'contract-report.html',
        'contract-summary.md',
      ])
        expect(existsSync(join(work, 'reports', report)), report).toBe(true);
    },
  );

  it(
    'with Dredd installed beside it, server-listing-contract --start-mock replays too, and writes every report ' +
      'here',
    async () => {
      npm(['install', `dredd@${OURS.devDependencies.dredd}`, '--no-audit', '--no-fund', '--prefer-offline'], root);
      const result = await run(bin('server-listing-contract'), ['--start-mock']);
      expect(result.code, result.stdout + result.stderr).toBe(0);
      expect(result.stdout).toMatch(/^PASSED: \d+ checks run, 0 failed/m);
      expect(result.stdout).toMatch(/^Requests: .* 9 by Dredd /m);
      for (const report of [
        'contract-report.json',
        'contract-junit.xml',
        'contract-report.html',
        'contract-summary.md',
        'contract-dredd.log',
      ])
        expect(existsSync(join(work, 'reports', report)), report).toBe(true);
      expect(readFileSync(join(work, 'reports/contract-junit.xml'), 'utf8')).toMatch(
        /<testsuites name="contract" tests="\d+" failures="0"/,
      );
      expect(readdirSync(join(root, 'node_modules'))).toContain('dredd');
    },
  );
});

interface Answer {
  status: number;
  headers: [string, string][];
  body: string;
}

/** Takes `v8Flags` out of answer `at` (a JSON body, base64), its Content-Length made to fit; returns them. */
function flagsOut(answers: Answer[], at: number): unknown {
  const answer = answers[at]!;
  const { v8Flags, ...rest } = JSON.parse(Buffer.from(answer.body, 'base64').toString()) as { v8Flags?: unknown };
  const body = Buffer.from(JSON.stringify(rest));
  answer.body = body.toString('base64');
  answer.headers = answer.headers.map(([n, v]) => [n, n === 'content-length' ? String(body.length) : v]);
  return v8Flags;
}
