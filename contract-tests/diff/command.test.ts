// `diff` as a command, in process: its flags, the three formats, --fail-on and its exit
// codes, a git ref as the base (in a repository made for the test), and every misuse
// answered with exit 2 and what was wrong.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dump } from 'js-yaml';
import { describe, expect, test } from 'vitest';
import { loadSpec, SPEC_PATH } from '../../spec/load.ts';
import { USAGE_FORMAT } from '../../spec/usage-profile.ts';
import { runDiff } from './command.ts';
import { DIFF_FORMAT } from './report.ts';

const SPEC_TEXT = readFileSync(SPEC_PATH, 'utf8');

function run(argv: string[], cwd: string): { code: number; out: string; err: string } {
  let out = '';
  let err = '';
  const code = runDiff(argv, { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`), cwd });
  return { code, out, err };
}

/** A folder with the spec as `base.yaml` and a copy edited as `head.yaml`. */
function pair(edit: (doc: any) => void): string {
  const dir = mkdtempSync(join(tmpdir(), 'spec-diff-'));
  const head = loadSpec();
  edit(head);
  writeFileSync(join(dir, 'base.yaml'), SPEC_TEXT);
  writeFileSync(join(dir, 'head.yaml'), dump(head));
  return dir;
}

const removeOrg = (d: any) => {
  const find = d.paths['/servers/find'].get;
  find.parameters = find.parameters.filter((p: any) => p.$ref !== '#/components/parameters/org');
};

describe('server-listing-contract diff', () => {
  test('no change: exit 0 and says so, under any --fail-on', () => {
    const dir = pair(() => {});
    const r = run(['--base', 'base.yaml', '--head', 'head.yaml', '--fail-on', 'warning'], dir);
    expect(r).toMatchObject({ code: 0, err: '' });
    expect(r.out).toBe('Spec diff base.yaml -> head.yaml: no changes (passed --fail-on warning)\n');
  });

  test('a breaking change: text by default, exit 1 under --fail-on breaking, 0 without', () => {
    const dir = pair(removeOrg);
    const failing = run(['--base', 'base.yaml', '--head', 'head.yaml', '--fail-on', 'breaking'], dir);
    expect(failing.code).toBe(1);
    expect(failing.out).toContain(
      'Spec diff base.yaml -> head.yaml: 1 breaking, 0 warnings, 0 info (FAILED: --fail-on breaking)',
    );
    expect(failing.out).toContain(
      'BREAKING request-parameter-removed [observed] GET /servers/find: query parameter org',
    );
    expect(run(['--base', 'base.yaml', '--head', 'head.yaml'], dir).code).toBe(0);
  });

  test('a warning fails --fail-on warning only', () => {
    const dir = pair((d) =>
      d.paths['/metadata/versions'].get.parameters.push({ name: 'since', in: 'query', schema: { type: 'integer' } }),
    );
    expect(run(['--base', 'base.yaml', '--head', 'head.yaml', '--fail-on', 'breaking'], dir).code).toBe(0);
    expect(run(['--base', 'base.yaml', '--head', 'head.yaml', '--fail-on', 'warning'], dir).code).toBe(1);
  });

  test('markdown for a pull request, JSON for a program', () => {
    const dir = pair(removeOrg);
    const md = run(['--base', 'base.yaml', '--head', 'head.yaml', '--format', 'markdown'], dir).out;
    expect(md).toMatch(/^## ❌ Spec diff: 1 breaking, 0 warnings, 0 info\n/);
    expect(md).toContain(
      '| ❌ breaking | `request-parameter-removed` | observed | GET /servers/find: query parameter org |',
    );
    const json = JSON.parse(
      run(['--base', 'base.yaml', '--head', 'head.yaml', '--format', 'json', '--fail-on', 'breaking'], dir).out,
    );
    expect(json).toMatchObject({
      format: DIFF_FORMAT,
      base: 'base.yaml',
      head: 'head.yaml',
      counts: { breaking: 1, warning: 0, info: 0 },
      failOn: 'breaking',
      failed: true,
      changes: [
        { rule: 'request-parameter-removed', breaks: 'clients', level: 'observed', operationId: 'findServers' },
      ],
    });
  });

  test('--usage weighs each change; the files may follow one --usage', () => {
    const dir = pair(removeOrg);
    const profile = (consumer: string) => ({
      format: USAGE_FORMAT,
      consumer,
      requests: 3,
      operations: {
        findServers: { requests: 3, parameters: {}, body: {}, credentials: { none: 3 }, statuses: { '200': 3 } },
      },
    });
    writeFileSync(join(dir, 'web.json'), JSON.stringify(profile('web')));
    writeFileSync(join(dir, 'app.json'), JSON.stringify(profile('app')));
    const r = run(
      ['--base', 'base.yaml', '--head', 'head.yaml', '--fail-on', 'breaking', '--usage', 'web.json', 'app.json'],
      dir,
    );
    expect(r.code).toBe(0);
    expect(r.out).toContain('Weighed by usage: web 3 requests, app 3 requests');
    expect(r.out).toContain('WARNING  request-parameter-removed');
    expect(r.out).toContain(
      'no recorded consumer uses it (3 recorded requests of `web`, 3 recorded requests of `app`)',
    );
  });

  test('a git ref as the base, the working copy as the head', () => {
    const repo = mkdtempSync(join(tmpdir(), 'spec-repo-'));
    mkdirSync(join(repo, 'spec'));
    writeFileSync(join(repo, 'spec/openapi.yaml'), SPEC_TEXT);
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], {
        cwd: repo,
        stdio: 'pipe',
      });
    git('init', '-q', '-b', 'main');
    git('add', '.');
    git('commit', '-qm', 'spec');
    const head = loadSpec(join(repo, 'spec/openapi.yaml'));
    removeOrg(head);
    writeFileSync(join(repo, 'spec/openapi.yaml'), dump(head));
    const r = run(['--base', 'main', '--fail-on', 'breaking'], repo);
    expect(r.code).toBe(1);
    expect(r.out).toContain('Spec diff main:spec/openapi.yaml -> spec/openapi.yaml: 1 breaking');
    // The spec elsewhere in the repository: --spec-path for both sides.
    mkdirSync(join(repo, 'api'));
    writeFileSync(join(repo, 'api/spec.yaml'), SPEC_TEXT);
    git('add', '.');
    git('commit', '-qm', 'moved');
    expect(run(['--base', 'HEAD', '--spec-path', 'api/spec.yaml'], repo).out).toContain('no changes');
    const missing = run(['--base', 'HEAD~1', '--spec-path', 'api/spec.yaml'], repo);
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(
      /--base 'HEAD~1': no such file, and git cannot read HEAD~1:api\/spec\.yaml \(fatal: .*\); pass --spec-path/,
    );
  });

  test('misuse is exit 2 with what was wrong', () => {
    const dir = pair(() => {});
    writeFileSync(join(dir, 'broken.yaml'), 'openapi: [unclosed');
    writeFileSync(join(dir, 'other.yaml'), 'openapi: 3.0.3\ninfo: {title: x, version: "1"}\npaths: {}\n');
    writeFileSync(join(dir, 'not-a-profile.json'), '{"consumer": 1}');
    const cases: [string[], RegExp][] = [
      [[], /diff needs --base <file\|git ref>/],
      [['--base', 'base.yaml', '--fail-on', 'error'], /--fail-on must be breaking or warning, got 'error'/],
      [['--base', 'base.yaml', 'stray'], /unexpected argument 'stray'/],
      [
        ['--base', 'no-such-ref'],
        /--base 'no-such-ref': no such file, and not a git ref here \(fatal: not a git repository/,
      ],
      [['--base', '--head'], /--base needs a value/],
      [['--base', 'broken.yaml', '--head', 'head.yaml'], /broken\.yaml: not YAML or JSON/],
      [
        ['--base', 'other.yaml', '--head', 'head.yaml'],
        /other\.yaml: not an OpenAPI document \(no paths or components\)/,
      ],
      [['--base', 'base.yaml', '--head', 'nothing.yaml'], /--head nothing\.yaml: cannot read it \(ENOENT\)/],
      [
        ['--base', 'base.yaml', '--head', 'head.yaml', '--usage', 'not-a-profile.json'],
        /--usage not-a-profile\.json: not a usage profile/,
      ],
      [
        ['--base', 'base.yaml', '--head', 'head.yaml', '--usage', 'none.json'],
        /--usage none\.json: cannot read it \(ENOENT\)/,
      ],
    ];
    for (const [argv, message] of cases) {
      const r = run(argv, dir);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err, argv.join(' ')).toMatch(message);
      expect(r.out).toBe('');
    }
  });

  test('a spec the model refuses names the side and the reason', () => {
    const dir = pair((d) => delete d['x-routing']);
    const r = run(['--base', 'base.yaml', '--head', 'head.yaml'], dir);
    expect(r.code).toBe(2);
    expect(r.err).toBe('contract diff: head.yaml: the document has no x-routing\n');
  });

  test('--list-rules prints the table; --help the usage', () => {
    const rules = run(['--list-rules'], tmpdir());
    expect(rules.code).toBe(0);
    expect(rules.out).toMatch(/^breaking\s+clients\s+request-parameter-removed: /m);
    expect(rules.out).toMatch(/^warning\s+implementations\s+endpoint-added: /m);
    expect(run(['--help'], tmpdir()).out).toMatch(/^Usage: server-listing-contract diff --base/);
  });
});
