// The proxy's verdict cache as a client meets it, over sockets: an answer that repeats the
// last clean one (same request, same headers, same bytes) is only counted, yet counted as
// every judge would count it; one header changed is judged again and its failure named;
// the same bytes with a different request are judged as that request.
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFERENCE_BASE, referenceFetch } from '../reference-server/in-process.ts';
import { startProxy, type RunningProxy } from './proxy.ts';

const PATH = '/metadata/regions';
let answer: { status: number; headers: [string, string][]; body: Buffer };
/** Headers the upstream sends instead of the reference server's, for the next answers. */
let changed: Record<string, string> = {};
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
    res.writeHead(answer.status, headers.flat()).end(answer.body);
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
});
