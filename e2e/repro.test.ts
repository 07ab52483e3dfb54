// A failure's repro line, as the summary prints it, pasted into a shell: run with curl
// against the reference server on a real socket, with the credentials in the variables
// the line names, it gets the very answer the failure reports. (The run is in this
// process, over the socket, as the CLI runs it; the CLI prints this very summary.)
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startReferenceServer, type RunningServer } from '../contract-tests/reference-server/socket.ts';
import { summary } from '../contract-tests/reports/outcome.ts';
import { runSuite } from '../contract-tests/run/suite.ts';
import { fixtureEnv } from './helpers.ts';

const run = promisify(execFile);
let server: RunningServer;
/** What the run printed, and its exit code. */
const cli = { stdout: '', code: -1 };

beforeAll(async () => {
  server = await startReferenceServer(['sql-500', 'wrong-401-message', 'repeated-param-500', 'encoded-colon-404']);
  const { outcome } = await runSuite({ baseUrl: server.baseUrl, dredd: false, allowWrites: true, env: fixtureEnv() });
  Object.assign(cli, { stdout: summary(outcome), code: outcome.exitCode });
}, 60_000);
afterAll(() => server?.close());

/** Each failure of the per-operation detail: its check, the status it got, its cause's number, its repro line. */
function printed(stdout: string): { check: string; status: number; cause: number; repro: string }[] {
  const detail = stdout.slice(stdout.indexOf('Every check, per operation:'));
  return [
    ...detail.matchAll(
      new RegExp(
        String.raw`^ {6}x \[\w+\] (.+)\n(?:^ {10}.*\n)*?^ {10}got: +(\d{3}) .*\n(?:^ {10}.*\n)*?^ {10}cause:` +
          String.raw` +(\d+)\. .*\n^ {10}repro: +(curl .+)$`,
        'gm',
      ),
    ),
  ].map((m) => ({ check: m[1]!, status: Number(m[2]), cause: Number(m[3]), repro: m[4]! }));
}

/** The status and body a repro line gets, run by bash with the credentials in the environment. */
async function replay(repro: string): Promise<{ status: number; text: string }> {
  const { stdout } = await run('bash', ['-c', `${repro} --silent --show-error`], {
    env: { PATH: process.env.PATH, ...fixtureEnv() },
    maxBuffer: 1 << 24,
  });
  return { status: Number(/^HTTP\/[\d.]+ (\d{3})/.exec(stdout)?.[1]), text: stdout };
}

describe('a printed repro line, run in a shell', () => {
  test('the run failed, printing a repro line for its failures, no credential among them', () => {
    expect(cli.code, cli.stdout).toBe(1);
    expect(printed(cli.stdout).length).toBeGreaterThan(20);
    expect(cli.stdout).toContain('"Authorization: Bearer ${CONTRACT_API_KEY}"');
    expect(cli.stdout).not.toContain(fixtureEnv().CONTRACT_API_KEY);
  });

  test('gets the answer each failure reports: two of each cause', async () => {
    // A key the run made and revoked cannot be used again: its line shows it masked.
    const all = printed(cli.stdout).filter((f) => !f.repro.includes('…'));
    const lines = all.filter((f) => all.filter((x) => x.cause === f.cause).indexOf(f) < 2);
    expect(new Set(lines.map((f) => f.cause)).size).toBe(4);
    const got = await Promise.all(lines.map(async (f) => ({ ...f, replayed: await replay(f.repro) })));
    expect(
      got
        .filter((f) => f.replayed.status !== f.status)
        .map((f) => `${f.check}: ${f.status} printed, ${f.replayed.status} replayed: ${f.repro}`),
    ).toEqual([]);
    const twice = got.find((f) => f.check.startsWith('generated: a query parameter sent twice'))!;
    expect(twice.replayed.text).toMatch(/^HTTP\/1\.1 500 [\s\S]*ER_OPERAND_COLUMNS: Operand should contain 1 column/);
    const colon = got.find((f) => f.check.startsWith('generated: path parameters with percent-encoded'))!;
    expect(colon.repro).toMatch(/%3A\d+' /);
    expect(colon.replayed.status).toBe(404);
  }, 60_000);
});
