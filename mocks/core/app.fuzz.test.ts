// The app under thousands of requests generated from the spec (spec/request-arbitraries.ts):
// valid and invalid values for every parameter, other methods, credentials right and
// wrong, broken cookies and encodings, bodies of every kind. Each answer is judged by
// spec/judge.ts, which reads the spec itself, not the mock's self-check (off here).
// Seeded: a failure is the same on every run, and fast-check shrinks it to a small case.
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { AnswerJudge } from '../../spec/judge.ts';
import { curlLine, requestArbitrary, type FuzzRequest } from '../../spec/request-arbitraries.ts';
import { fixtures, model, ORIGIN, useApp } from '../testing/test-app.ts';

const RUNS = 5000;
const SEED = 20_261_123;

const credentials = fixtures.credentials.map((c) => ({ scheme: c.type, value: c.value }));

async function answer(app: ReturnType<typeof useApp>, req: FuzzRequest) {
  // The Host a request names is its URL's host under app.request(), as the Node adapter makes it.
  const res = await app.fetch((req.host === undefined ? ORIGIN : `http://${req.host}`) + req.path, {
    method: req.method,
    headers: req.headers,
    ...(req.body !== undefined ? { body: req.body } : {}),
  });
  const headers: Record<string, string> = {};
  res.headers.forEach((v, k) => {
    headers[k] = v;
  });
  return { status: res.status, headers, body: await res.text() };
}

describe('generated requests', () => {
  it(`${RUNS} of them: no 5xx, every error in the error shape, every declared answer as the spec says`, async () => {
    // Generated Origin headers are refused by the thousand; their warnings are not the subject.
    const app = useApp({ selfCheck: false }, () => {});
    const checker = new AnswerJudge(model);
    await fc.assert(
      fc.asyncProperty(requestArbitrary(model, { credentials }), async (req) => {
        const findings = checker.exchange({ request: req, response: await answer(app, req) });
        if (findings.length)
          throw new Error(
            `${findings.map((f) => `${f.kind}: ${f.detail}`).join('\n')}\nrepro: ${curlLine(ORIGIN, req)}`,
          );
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });
});
