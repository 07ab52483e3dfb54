// A repro line is what a shell repeats: the request as sent, byte for byte, the run's
// credentials read from the variables they came from and never printed. Checked by
// running each line in bash with a `curl` that prints what it was given.
import { execFileSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { curlLine, nameVariable } from './repro.ts';

const KEY = 'sls_test_reprokey000000000000000000000000000042';
const SESSION = 'sess_test_repro_0000000000000042';
nameVariable(KEY, '${CONTRACT_API_KEY}');
nameVariable(SESSION, '${CONTRACT_SESSION_COOKIE#sls_session=}');

/** The arguments curl would get, once the shell has read the line. */
function argv(line: string, env: Record<string, string>): string[] {
  const out = execFileSync('bash', ['-c', `curl() { printf '%s\\0' "$@"; }; ${line}`], {
    env: { PATH: process.env.PATH, ...env },
    maxBuffer: 1 << 24,
  }).toString();
  return out.split('\0').slice(0, -1);
}

describe('curlLine', () => {
  test(
    'credentials are the variables they came from, never their values; the session takes either form of its ' +
      'variable',
    () => {
      const line = curlLine({
        method: 'GET',
        url: "http://127.0.0.1:9/api/v0.1/user/apikeys?q=it's",
        headers: { Authorization: `Bearer ${KEY}`, Cookie: `sls_session=${SESSION}` },
      });
      expect(line).not.toContain(KEY);
      expect(line).not.toContain(SESSION);
      expect(line).toContain('"Authorization: Bearer ${CONTRACT_API_KEY}"');
      for (const cookie of [SESSION, `sls_session=${SESSION}`]) {
        expect(argv(line, { CONTRACT_API_KEY: KEY, CONTRACT_SESSION_COOKIE: cookie })).toEqual([
          '-i',
          "http://127.0.0.1:9/api/v0.1/user/apikeys?q=it's",
          '-H',
          'Accept: application/json',
          '-H',
          `Authorization: Bearer ${KEY}`,
          '-H',
          `Cookie: sls_session=${SESSION}`,
        ]);
      }
    },
  );

  test(
    'a body goes as it was sent, a long run of one character rebuilt by the shell; the method and Content-Type ' +
      'with it',
    () => {
      const body = { name: "contract-test-'x'", padding: 'x'.repeat(16_384) };
      const line = curlLine({
        method: 'POST',
        url: 'http://127.0.0.1:9/api/v0.1/user/apikeys',
        headers: { Cookie: `sls_session=${SESSION}` },
        body,
      });
      expect(line.length).toBeLessThan(400);
      const args = argv(line, { CONTRACT_SESSION_COOKIE: SESSION });
      expect(args.slice(0, 3)).toEqual(['-i', '-X', 'POST']);
      expect(args).toContain('Content-Type: application/json');
      expect(args.at(-2)).toBe('--data-raw');
      expect(args.at(-1)).toBe(JSON.stringify(body));
    },
  );

  test(
    'a made-up key is sent as it was (it is no secret); ' + 'brackets in a URL are not curl globs; HEAD is --head',
    () => {
      const line = curlLine({
        method: 'HEAD',
        url: 'http://127.0.0.1:9/api/v0.1/servers/find?motd=[a]{b}',
        headers: { Authorization: 'Bearer sls_test_unknown_0000' },
      });
      expect(argv(line, {})).toEqual([
        '-i',
        '--globoff',
        '--head',
        'http://127.0.0.1:9/api/v0.1/servers/find?motd=[a]{b}',
        '-H',
        'Accept: application/json',
        '-H',
        'Authorization: Bearer sls_test_unknown_0000',
      ]);
    },
  );
});
