// The app under thousands of requests generated from the spec (spec/request-arbitraries.ts):
// valid and invalid values for every parameter, other methods, credentials right and
// wrong, broken cookies and encodings, bodies of every kind. Each answer is judged by the
// registry's judges (spec/judges/), which read the spec itself, not the mock's self-check
// (off here): the status each request is owed, JSON, the error body, the schemas, headers.
// Seeded: a failure is the same on every run, and fast-check shrinks it to a small case.
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { steeredBy } from './steering.ts';
import { lowerCased } from '../../spec/judges/exchange.ts';
import { findingsOf, JudgeContext } from '../../spec/judges/registry.ts';
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
  const text = await res.text();
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers, text, json };
}

describe('generated requests', () => {
  it(`${RUNS} of them: no 5xx, every error in the error shape, every declared answer as the spec says`, async () => {
    // Generated Origin headers are refused by the thousand; their warnings are not the subject.
    const app = useApp({ selfCheck: false }, () => {});
    const ctx = JudgeContext.of(model);
    await fc.assert(
      fc.asyncProperty(requestArbitrary(model, { credentials }), async (req) => {
        const headers = lowerCased(req.headers);
        const prefer = steeredBy(headers, req.host);
        const request = {
          method: req.method,
          target: req.path,
          headers,
          ...(req.body !== undefined ? { body: req.body } : {}),
        };
        const ex = {
          request,
          answer: await answer(app, req),
          at: Date.now(),
          ...(prefer ? { known: prefer } : {}),
        };
        const findings = findingsOf(ex, ctx);
        if (findings.length)
          throw new Error(`${findings.map((f) => `${f.judge}: ${f.why}`).join('\n')}\nrepro: ${curlLine(ORIGIN, req)}`);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });
});
