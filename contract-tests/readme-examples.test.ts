// The examples of this folder's manual ("Adding a check family", "Adding a judge") are
// code a reader copies: each is written out where its comment says it lives, compiled
// with the project's settings, and run. A change to the family or judge interface that
// leaves the manual behind fails here.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Judge } from '../spec/judges/judge.ts';
import { JudgeContext } from '../spec/judges/registry.ts';
import { loadModel } from '../spec/model.ts';
import { exchange } from '../spec/testing/exchanges.ts';
import type { Family } from './checks/families.ts';
import { runAgainstReference } from './reference-server/in-process.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MANUAL = join(ROOT, 'contract-tests/README.md');

/** The manual's examples: the path each says it lives at, and its code. */
function examples(): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of readFileSync(MANUAL, 'utf8').matchAll(/<!-- example: (\S+) -->\n```ts\n([\s\S]*?)```/g)) {
    out.set(m[1]!, m[2]!);
  }
  return out;
}

/**
 * Where an example is written: beside the file it names, under a name no
 * source has, so its imports resolve as they would there.
 */
function placeOf(path: string): string {
  const where = path.startsWith('spec/') ? path : `contract-tests/${path}`;
  return join(ROOT, dirname(where), `.readme-example-${process.pid}-${basename(where)}`);
}

const written = new Map<string, string>();

beforeAll(() => {
  for (const [path, code] of examples()) {
    const place = placeOf(path);
    writeFileSync(place, code);
    written.set(path, place);
  }
});

afterAll(() => {
  for (const place of written.values()) rmSync(place, { force: true });
});

describe("the manual's examples", () => {
  it('are there, and compile with the project settings', () => {
    expect([...written.keys()].sort()).toEqual(['checks/head.ts', 'spec/judges/private-answers.ts']);
    const config = ts.getParsedCommandLineOfConfigFile(
      join(ROOT, 'tsconfig.json'),
      {},
      {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: (d) => {
          throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
        },
      },
    )!;
    const program = ts.createProgram([...written.values()], config.options);
    const errors = ts
      .getPreEmitDiagnostics(program)
      .filter((d) => d.file && [...written.values()].includes(d.file.fileName))
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(errors).toEqual([]);
  }, 60_000);

  it('the family passes the reference server and fails it when a route is missing', async () => {
    const { headFamily } = (await import(written.get('checks/head.ts')!)) as { headFamily: Family };
    const clean = await runAgainstReference('none', { families: [headFamily] });
    const heads = clean.outcome.reports.flatMap((o) => o.results).filter((r) => r.check.startsWith('head:'));
    expect(heads.length).toBeGreaterThan(0);
    expect(heads.filter((r) => r.status !== 'pass')).toEqual([]);

    const broken = await runAgainstReference('missing-route', { families: [headFamily] });
    const failed = broken.outcome.reports
      .flatMap((o) => o.results)
      .filter((r) => r.check.startsWith('head:') && r.status === 'fail');
    expect(failed.map((r) => r.route)).toEqual(['/metadata/versions']);
    expect(failed[0]!.findings?.map((f) => f.judge)).toEqual(['success']);
  }, 60_000);

  it('the judge finds a shared-cacheable answer to a request with credentials, and nothing else', async () => {
    const { privateAnswers } = (await import(written.get('spec/judges/private-answers.ts')!)) as {
      privateAnswers: Judge;
    };
    const ctx = JudgeContext.of(loadModel());
    const keyed = { authorization: 'Bearer sls_test_valid0000000000000000000000000000000a11ce' };
    const page = (cacheControl: string, request: Record<string, string>) =>
      exchange(
        'GET /api/v0.1/user/apikeys',
        200,
        { success: true, keys: [] },
        {
          request,
          headers: { 'content-type': 'application/json', 'cache-control': cacheControl },
        },
      );

    const stored = page('public, max-age=60', keyed);
    expect(privateAnswers.applies(stored, ctx)).toBe(true);
    expect(privateAnswers.judge(stored, ctx).map((f) => f.why)).toEqual([
      'an answer to a request with credentials says Cache-Control: public, max-age=60',
    ]);
    expect(privateAnswers.judge(page('private, max-age=60', keyed), ctx)).toEqual([]);
    expect(privateAnswers.applies(page('public, max-age=60', {}), ctx)).toBe(false);
  });
});
