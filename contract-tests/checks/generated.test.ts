// The generated phase against the reference server, in process: it finds the input
// defects planted there, each reported as the smallest request that still fails; it
// finds nothing on a correct server; the same seed sends the same requests; it stays
// within the budget; it never writes.
import { describe, expect, test } from 'vitest';
import type { Defect } from '../reference-server/defects.ts';
import { referenceFetch, runAgainstReference } from '../reference-server/in-process.ts';
import type { CheckResult } from '../shared/recorder.ts';
import { checkName, generatedFamily } from './generated.ts';

/** A run of the generated family alone, and every URL it sent. */
async function generate(
  defects: Defect[],
  options: { seed?: number; budget?: number } = {},
): Promise<{ results: CheckResult[]; urls: string[]; figures: string[] }> {
  const urls: string[] = [];
  const reference = referenceFetch(defects);
  const { outcome } = await runAgainstReference(defects, {
    families: [generatedFamily],
    fetch: (r) => {
      urls.push(`${r.method} ${r.url}`);
      return reference(r);
    },
    ...options,
  });
  // The phase's own results: the judges' verdicts on every answer of the run are listed apart.
  const results = outcome.reports.flatMap((r) => r.results).filter((r) => r.family === 'generated');
  return { results, urls, figures: outcome.figures };
}

const result = (results: CheckResult[], operationId: string, check: string) =>
  results.find((r) => r.operationId === operationId && r.check === check);
const query = (request: string | undefined) => [...new URLSearchParams(/\?(\S*)/.exec(request ?? '')?.[1] ?? '')];

describe('the generated phase', () => {
  test('finds a parameter sent twice answered 500, shrunk to that parameter twice and nothing else', async () => {
    const { results } = await generate(['repeated-param-500', 'encoded-colon-404']);
    const f = result(results, 'findServers', checkName('repeated'))!;
    expect(f.status).toBe('fail');
    expect(f.message).toMatch(/^status 500: the server failed: Error: ER_OPERAND_COLUMNS.*; it leaks SQL text: /);
    const entries = query(f.request);
    expect(entries).toHaveLength(2);
    expect(entries[0]![0]).toBe(entries[1]![0]);
    expect(f.repro).toMatch(/^curl -i 'http:\/\/reference\.test\/api\/v0\.1\/servers\/find\?(\w+)=[^&']*&\1=[^&']*' /);
    // Every operation with query parameters has the defect; each names it.
    for (const id of ['listVersions', 'listCountries', 'listRegions'])
      expect(result(results, id, checkName('repeated'))?.status, id).toBe('fail');
  });

  test(
    "finds a ping address with its ':' percent-encoded answered 404 while the raw ':' gets 200, shrunk to the " +
      "':' alone",
    async () => {
      const { results } = await generate(['repeated-param-500', 'encoded-colon-404']);
      const f = result(results, 'pingServer', checkName('encoded'))!;
      expect(f.status).toBe('fail');
      expect(f.message).toMatch(
        /^status 404, but 200 for the same request spelt plainly \(\/status\/ping\/[\w.-]+:\d+\)/,
      );
      // Only the colon is encoded: the dots that need not be to fail stay raw.
      expect(f.request).toMatch(/^GET \/api\/v0\.1\/status\/ping\/[\w-]+(\.[\w-]+)+%3A\d+ \(/);
      expect(result(results, 'pingServerHostPort', checkName('encoded'))?.status).toBe('pass');
    },
  );

  test('finds nothing on a correct server, and never writes', async () => {
    const { results, urls } = await generate(['none']);
    expect(results.filter((r) => r.status !== 'pass')).toEqual([]);
    // 3 kinds on the search, 3 on each ping, 4 on each lookup, 1 on the key list.
    expect(results.length).toBe(22);
    expect(urls.every((u) => u.startsWith('GET '))).toBe(true);
    expect(results.every((r) => !['createApiKey', 'revokeApiKey'].includes(r.operationId))).toBe(true);
  });

  test('the same seed sends the same requests; another seed, others', async () => {
    const [a, b, c] = await Promise.all([
      generate(['none'], { seed: 3 }),
      generate(['none'], { seed: 3 }),
      generate(['none'], { seed: 4 }),
    ]);
    expect(a.urls).toEqual(b.urls);
    expect(a.urls).not.toEqual(c.urls);
    expect(a.urls.length).toBeGreaterThan(80);
  });

  test('stays within the budget: what it cannot send is skipped, saying why', async () => {
    const { results, figures } = await generate(['none'], { budget: 30 });
    expect(Number(/^Requests: (\d+) sent by the suite \(budget 30/.exec(figures[0]!)?.[1])).toBeLessThanOrEqual(30);
    const skipped = results.filter((r) => r.status === 'skip');
    expect(skipped.length).toBeGreaterThan(0);
    expect(skipped.every((r) => /request budget is used up/.test(r.message ?? ''))).toBe(true);
  });
});
