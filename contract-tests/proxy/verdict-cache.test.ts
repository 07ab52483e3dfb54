// The proxy's verdict cache as a client meets it, over sockets: an answer that repeats the
// last clean one (same request, same headers, same bytes) is only counted, yet counted as
// every judge would count it; one header changed is judged again and its failure named;
// the same bytes with a different request are judged as that request; the same headers with other bytes too.
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFERENCE_BASE, referenceFetch } from '../reference-server/in-process.ts';
import { type Exchange, headerRecord } from './forward.ts';
import { startProxy, type RunningProxy } from './proxy.ts';
import { VerdictCache } from './verdict-cache.ts';

const PATH = '/metadata/regions';
let answer: { status: number; headers: [string, string][]; body: Buffer };
/** Headers the upstream sends instead of the reference server's, for the next answers. */
let changed: Record<string, string> = {};
/** Bytes the upstream sends instead of the reference server's, for the next answers (same headers, name for name). */
let changedBody: Buffer | undefined;
let upstream: ReturnType<typeof createServer>;
let proxy: RunningProxy;
const log: string[] = [];

beforeAll(async () => {
  const res = await referenceFetch('none')(new Request(`${REFERENCE_BASE}${PATH}`));
  const headers: [string, string][] = [];
  res.headers.forEach((v, k) => {
    headers.push([k, v]);
  });
  answer = { status: res.status, headers, body: Buffer.from(await res.arrayBuffer()) };
  upstream = createServer((_req, res) => {
    res.sendDate = false;
    const headers = answer.headers.map(([k, v]) => [k, changed[k] ?? v]);
    res.writeHead(answer.status, headers.flat()).end(changedBody ?? answer.body);
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  const { port } = upstream.address() as AddressInfo;
  proxy = await startProxy({ upstream: `http://127.0.0.1:${port}/api/v0.1`, log: (l) => log.push(l) });
});

afterAll(async () => {
  await proxy?.close();
  await new Promise((r) => upstream?.close(r));
});

function get(path: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    request(`${proxy.baseUrl}${path}`, { headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    })
      .on('error', reject)
      .end();
  });
}

/** The report's results for listRegions, by check, with the figures line. */
async function report() {
  await proxy.judged();
  const outcome = proxy.outcome();
  const results = outcome.reports.flatMap((r) => r.results).filter((r) => r.operationId === 'listRegions');
  return { results, figures: outcome.figures.join('\n') };
}

describe('the same answer again', () => {
  it('is counted by every judge, each time; one header changed is judged again', async () => {
    for (let i = 0; i < 5; i++) expect(await get(PATH)).toBe(200);
    let { results, figures } = await report();
    expect(figures).toContain('Answers: 5 judged, 0 forwarded but not judged');
    expect(results.length).toBeGreaterThan(3);
    for (const r of results) expect(`${r.check}: ${r.status} ${r.message}`).toMatch(/: pass 5 answers judged$/);
    expect(log).toEqual([]);

    // The same bytes, but a rate-limit header its schema refuses: not the clean answer over again.
    changed = { 'x-ratelimit-remaining': 'many' };
    expect(await get(PATH)).toBe(200);
    changed = {};
    expect(await get(PATH)).toBe(200);
    ({ results, figures } = await report());
    expect(figures).toContain('Answers: 7 judged, 0 forwarded but not judged');
    const failed = results.filter((r) => r.status === 'fail');
    expect(failed.map((r) => r.message)).toEqual([
      expect.stringMatching(/header X-RateLimit-Remaining is "many", which its schema does not allow \(1 of 7 answers/),
    ]);
    expect(log).toHaveLength(1);
    for (const r of results.filter((x) => x.status === 'pass')) expect(r.message).toBe('7 answers judged');

    // The same bytes to a request with a malformed key: judged as that request (its credentials are in what is read).
    expect(await get(PATH, { Authorization: 'Bearer' })).toBe(200);
    ({ figures } = await report());
    expect(figures).toContain('Answers: 8 judged');
  });

  it('is judged again when its bytes or its request differ, the answer headers the same name for name', async () => {
    log.length = 0;
    // The clean answer first, so the next is compared with it.
    expect(await get(PATH)).toBe(200);
    // As long as the clean answer (its Content-Length, every header as before), but a region is no string.
    const text = answer.body.toString('latin1');
    expect(text).toMatch(/"region":"[A-Z]{2}"/);
    changedBody = Buffer.from(text.replace(/"region":"[A-Z]{2}"/, '"region":null'), 'latin1');
    expect(changedBody.length).toBe(answer.body.length);
    expect(await get(PATH)).toBe(200);
    changedBody = undefined;
    expect(await get(PATH)).toBe(200);
    const { results, figures } = await report();
    expect(figures).toContain('Answers: 11 judged');
    const failed = results.filter((r) => r.status === 'fail').map((r) => `${r.check}: ${r.message}`);
    // The header's failure of the test before is still in the report; this one is the bytes'.
    expect(failed.filter((f) => !f.includes('X-RateLimit-Remaining'))).toEqual([
      expect.stringMatching(/region.*\(1 of 11 answers/),
    ]);
    expect(log).toEqual([expect.stringMatching(/^VIOLATION .*listRegions.*region/)]);

    // The clean answer's bytes and headers to a browser's request from another origin: its CORS judged, and failed.
    expect(await get(PATH, { Origin: 'http://localhost:5173' })).toBe(200);
    const cors = (await report()).results.filter((r) => r.status === 'fail' && r.check.startsWith('cors'));
    expect(cors.map((r) => r.message)).toEqual([expect.stringMatching(/Access-Control-Allow-Origin \(none\)/)]);
  });
});

describe('VerdictCache.again', () => {
  const exchange = (auth: string): Exchange => {
    const requestRaw = ['Host', 'a.test', 'Authorization', auth];
    const raw = ['Content-Type', 'application/json', 'Date', 'Mon, 01 Jun 2026 12:00:00 GMT'];
    return {
      method: 'GET',
      path: '/api/v0.1/user/apikeys',
      inApi: true,
      upstreamUrl: 'http://a.test/api/v0.1/user/apikeys',
      requestRaw,
      requestHeaders: headerRecord(requestRaw),
      response: { status: 200, raw, headers: headerRecord(raw), body: Buffer.from('{}'), bytes: 2 },
      held: 0,
      startedAt: 0,
      ms: 0,
    };
  };

  it("gives back the credentials the clean answer's request presented, for the mask to hold again", () => {
    const cache = new VerdictCache(undefined);
    const known = { verdicts: [], place: { operationId: 'listApiKeys', method: 'get' }, count: () => {} };
    cache.keep(exchange('Bearer sk_live_1'), known, [], false, ['sk_live_1']);
    expect(cache.again(exchange('Bearer sk_live_1'))?.secrets).toEqual(['sk_live_1']);
    // Another key is another request: judged, not counted.
    expect(cache.again(exchange('Bearer sk_live_2'))).toBeUndefined();
  });
});
