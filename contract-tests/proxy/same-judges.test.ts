// The proxy keeps no rule of its own: an exchange read as the proxy reads what it forwarded
// (read-exchange.ts) and as the suite reads what it sent (run/judging.ts) is the same
// exchange to the registry, and gets the same findings, on every request of the defects one
// exchange shows and on a browser's everyday traffic.
import { describe, expect, it } from 'vitest';
import { loadModel } from '../../spec/model.ts';
import { findingsOf, JudgeContext } from '../../spec/judges/registry.ts';
import { REFERENCE_BASE, referenceFetch } from '../reference-server/in-process.ts';
import type { Defect } from '../reference-server/defects.ts';
import { judgedExchange } from '../run/judging.ts';
import { caseHeaders, EVERYDAY, SHOWN, type TrafficCase } from '../testing/traffic-cases.ts';
import { send } from '../transport/http.ts';
import { headerRecord } from './forward.ts';
import { readExchange } from './read-exchange.ts';

const model = loadModel();
const ctx = JudgeContext.of(model);

/** One request to the reference server, read both ways. */
async function bothWays(defect: Defect, c: TrafficCase) {
  const fetch = referenceFetch(defect);
  const headers = caseHeaders(c);
  const request = { method: c.method, url: `${REFERENCE_BASE}${c.path}`, headers, ...(c.body ? { body: c.body } : {}) };
  const res = await send(fetch, request);
  const suite = judgedExchange(request, res);
  const raw: string[] = [];
  for (const [k, v] of Object.entries(res.headers)) raw.push(k, v);
  const body = Buffer.from(res.text);
  const forwarded = {
    method: c.method,
    path: `${model.basePath}${c.path}`,
    inApi: true,
    upstreamUrl: request.url,
    // What the suite's transport puts on the wire, as the proxy would have received it.
    requestHeaders: suite.request.headers,
    ...(suite.request.body ? { requestBody: Buffer.from(suite.request.body) } : {}),
    response: { status: res.status, headers: headerRecord(raw), body, bytes: body.length },
    held: 0,
    startedAt: Date.now(),
    ms: 1,
  };
  const read = readExchange(forwarded, 8 * 2 ** 20, 30_000);
  if (typeof read === 'string') throw new Error(read);
  const shown = (ex: typeof suite) => findingsOf(ex, ctx).map((f) => `${f.judge} [${f.level}] ${f.why}`);
  return { suite: shown(suite), proxy: shown({ ...read.judged, at: suite.at }) };
}

describe('the proxy and the suite judge an exchange alike', () => {
  for (const [defect, { request, seen }] of Object.entries(SHOWN)) {
    it(`${defect}: the same findings, ${seen.judge}'s among them`, async () => {
      const { suite, proxy } = await bothWays(defect as Defect, request);
      expect(proxy).toEqual(suite);
      expect(suite.some((f) => f.startsWith(`${seen.judge} [${seen.level}]`))).toBe(true);
    });
  }

  it('on a browser session against a correct server: the same verdicts, none a finding', async () => {
    for (const c of EVERYDAY) {
      const { suite, proxy } = await bothWays('none', c);
      expect(proxy, `${c.method} ${c.path}`).toEqual(suite);
      expect(suite, `${c.method} ${c.path}`).toEqual([]);
    }
  });
});
