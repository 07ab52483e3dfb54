// The proxy's judge, in process: exchanges with the reference server (its Hono app's
// fetch, no socket) read as the proxy reads what it forwarded (read-exchange.ts).
// Each defect one exchange can show is named once, at its level, with a repro that
// carries no credential; a correct server gives none of them, nor any other violation;
// the same violation again is counted, not logged again.
import { describe, expect, it } from 'vitest';
import { loadFixtures } from '../../fixtures/load.ts';
import { loadModel } from '../../spec/model.ts';
import type { Provenance } from '../../spec/provenance.ts';
import { REFERENCE_BASE, referenceFetch } from '../reference-server/in-process.ts';
import type { Defect } from '../reference-server/defects.ts';
import { headerRecord, type Exchange } from './forward.ts';
import { TrafficJudge } from './judge-traffic.ts';
import { readExchange } from './read-exchange.ts';
import { caseHeaders, EVERYDAY, SHOWN, type TrafficCase } from '../testing/traffic-cases.ts';

const model = loadModel();
const credentials = loadFixtures().credentials;

async function exchange(fetch: (r: Request) => Promise<Response>, c: TrafficCase): Promise<Exchange> {
  const headers = caseHeaders(c);
  const body = c.body === undefined ? undefined : JSON.stringify(c.body);
  const res = await fetch(
    new Request(`${REFERENCE_BASE}${c.path}`, { method: c.method, headers, ...(body ? { body } : {}) }),
  );
  const bytes = Buffer.from(await res.arrayBuffer());
  const raw: string[] = [];
  res.headers.forEach((v, k) => {
    raw.push(k, v);
  });
  return {
    method: c.method,
    path: `${model.basePath}${c.path}`,
    inApi: true,
    upstreamUrl: `${REFERENCE_BASE}${c.path}`,
    requestHeaders: headers,
    ...(body ? { requestBody: Buffer.from(body) } : {}),
    response: { status: res.status, headers: headerRecord(raw), body: bytes, bytes: bytes.length },
    held: 0,
    startedAt: Date.now(),
    ms: 1,
  };
}

async function judgeAll(defects: Defect | Defect[], cases: TrafficCase[], level: Provenance = 'assumed') {
  const lines: string[] = [];
  const traffic = new TrafficJudge(model, level, (l) => lines.push(l));
  const fetch = referenceFetch(defects);
  for (const c of cases) {
    const read = readExchange(await exchange(fetch, c), 8 * 2 ** 20, 30_000);
    if (typeof read === 'string') throw new Error(read);
    traffic.judgeOne(read.judged, read.request);
  }
  return { lines, results: traffic.results(), traffic };
}

describe('the proxy judge against the reference server', () => {
  it('a correct server: no violation, on every kind of request a browser sends', async () => {
    const cases = [...EVERYDAY, ...Object.values(SHOWN).map((s) => s!.request)];
    const { lines, results } = await judgeAll('none', cases);
    expect(lines).toEqual([]);
    expect(results.filter((r) => r.status === 'fail')).toEqual([]);
    expect(results.filter((r) => r.status === 'pass').length).toBeGreaterThan(30);
  });

  for (const [defect, { request, seen }] of Object.entries(SHOWN)) {
    it(`${defect}: named once, at its level, with a repro`, async () => {
      // Sent twice: the second is counted, not logged.
      const { lines, results } = await judgeAll(defect as Defect, [request, request]);
      const failure = results.find(
        (r) =>
          r.status === 'fail' &&
          r.operationId === seen.operation &&
          r.check.startsWith(`${seen.judge}: `) &&
          seen.why.test(r.message ?? ''),
      );
      expect(
        failure,
        `${JSON.stringify(
          results.filter((r) => r.status === 'fail'),
          null,
          1,
        )}`,
      ).toBeDefined();
      expect(failure!.provenance).toBe(seen.level);
      expect(failure!.message).toMatch(/\(2 of 2 answers judged break it/);
      expect(failure!.repro).toMatch(
        new RegExp(`^curl -i .*'${REFERENCE_BASE.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`),
      );
      const logged = lines.filter((l) => l.startsWith(`VIOLATION [${seen.level}] ${seen.operation}  ${seen.judge}: `));
      expect(logged).toHaveLength(1);
      expect(logged[0]).toContain(`repro: ${failure!.repro}`);
      for (const c of credentials) expect(lines.join('\n') + JSON.stringify(results)).not.toContain(c.value);
      if (request.credential === 'valid-session')
        expect(failure!.repro).toContain('sls_session=${CONTRACT_SESSION_COOKIE#sls_session=}');
      else if (request.credential) expect(failure!.repro).toContain('Authorization: Bearer ${CONTRACT_API_KEY}');
    });
  }

  it('judges only as firm a promise as --provenance asks: at interface, an observed defect is not a violation', async () => {
    const observed = await judgeAll('wrong-type', [SHOWN['wrong-type']!.request], 'interface');
    expect(observed.results.filter((r) => r.status === 'fail')).toEqual([]);
    const hard = await judgeAll('out-of-range-accepted', [SHOWN['out-of-range-accepted']!.request], 'interface');
    expect(hard.results.filter((r) => r.status === 'fail').map((r) => r.evidence?.judge)).toEqual(['refused-values']);
  });
});
