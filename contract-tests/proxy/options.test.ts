// The proxy's flags, read by the shared parser (cli/flags.ts): each value by its key, the
// upstream required and checked by its own flag's rule, wherever it came from.
import { describe, expect, test } from 'vitest';
import { FlagError } from '../../cli/flags.ts';
import { readFileSync } from 'node:fs';
import { FLAGS, parseOptions, USAGE } from './options.ts';

describe("the proxy's command line", () => {
  test('flags and environment, each value by its key', () => {
    expect(
      parseOptions(['--upstream', 'http://api.test:81/api/v0.1/', '--max-body', '2048'], { PROXY_PORT: '0' }),
    ).toMatchObject({
      upstream: 'http://api.test:81/api/v0.1',
      port: 0,
      host: '127.0.0.1',
      provenance: 'assumed',
      maxBody: 2048,
    });
    expect(parseOptions([], { PROXY_UPSTREAM: 'https://s.test/api/v0.1' }).upstream).toBe('https://s.test/api/v0.1');
    expect(parseOptions(['--help'], {}).help).toBe(true);
  });

  test('an upstream is required, an http(s) URL without credentials, named where it came from', () => {
    expect(() => parseOptions([], {})).toThrow(
      new FlagError(
        "no upstream: pass --upstream <url> (the API's base URL, e.g. https://staging.example.com/api/v0.1)",
      ),
    );
    expect(() => parseOptions(['--upstream', 'nope'], {})).toThrow(
      "--upstream 'nope' is not a URL (expected e.g. https://staging.example.com/api/v0.1)",
    );
    expect(() => parseOptions(['--upstream=ftp://x'], {})).toThrow("--upstream must be http(s), got 'ftp://x'");
    expect(() => parseOptions([], { PROXY_UPSTREAM: 'http://u:p@api.test' })).toThrow(
      'PROXY_UPSTREAM must not carry credentials: the proxy forwards the ones each request brings',
    );
    expect(() => parseOptions(['--upstream', 'http://x', '--max-body', '10'], {})).toThrow(
      "--max-body must be an integer from 1024 to 1073741824, got '10'",
    );
  });

  test("--usage-out needs --consumer, a plain name, as the mock's", () => {
    expect(parseOptions(['--upstream', 'http://x', '--consumer', 'web', '--usage-out', 'web.json'], {})).toMatchObject({
      consumer: 'web',
      usageOut: 'web.json',
    });
    expect(() => parseOptions(['--upstream', 'http://x', '--usage-out', 'web.json'], {})).toThrow(
      new FlagError('--usage-out needs --consumer <name>: who the usage profile is of (e.g. --consumer web)'),
    );
    expect(() => parseOptions(['--upstream', 'http://x'], { PROXY_CONSUMER: 'a b' })).toThrow(
      /^PROXY_CONSUMER must be who the usage profile is of, .*got 'a b'$/,
    );
  });

  test('--help lists every flag', () => {
    const flags = ['--upstream', '--port', '--host', '--provenance', '--record', '--reports', '--max-body'];
    for (const flag of [...flags, '--consumer', '--usage-out']) expect(USAGE).toContain(flag);
  });

  test("every flag has its row in the manual's table (contract-tests/README.md)", () => {
    const manual = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const from = manual.indexOf("The proxy's flags");
    const table = manual.slice(from, manual.indexOf('\n\n', manual.indexOf('|---|', from)));
    for (const name of Object.keys(FLAGS).filter((n) => n !== 'help' && n !== 'version'))
      expect(table, `--${name}`).toMatch(new RegExp(`^\\| \`--${name}[ \`]`, 'm'));
  });
});
