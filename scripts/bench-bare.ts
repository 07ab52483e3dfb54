// The benchmark's ceiling: a bare node:http server that answers, for every benchmarked
// request, the exact status, headers and body the mock gave for it (recorded by
// scripts/bench.ts beforehand). No routing, no filtering, no validation: one Map lookup
// per request. Whatever the mock spends above this is the cost of being a mock.
//
//   node --import tsx scripts/bench-bare.ts <recorded.json> <port>
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { pathToFileURL } from 'node:url';

/** What scripts/bench.ts records: one entry per (Authorization header, URL). */
export interface Recorded {
  key: string;
  status: number;
  headers: Record<string, string>;
  bodyBase64: string;
}

/**
 * The replay key. The URL alone is not enough: `GET /user/apikeys` answers 200 with a
 * valid key and 401 without one, so the Authorization header is part of the key.
 */
export function replayKey(url: string, authorization: string | undefined): string {
  return `${authorization ?? ''} ${url}`;
}

// Only serve when run as a program; scripts/bench.ts imports this file for the types above.
const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
const [file, portArg] = process.argv.slice(2);
if (isMain && file && portArg) {
  const answers = new Map<string, { status: number; headers: Record<string, string | number>; body: Buffer }>();
  for (const r of JSON.parse(readFileSync(file, 'utf8')) as Recorded[]) {
    const body = Buffer.from(r.bodyBase64, 'base64');
    answers.set(r.key, { status: r.status, headers: { ...r.headers, 'content-length': body.length }, body });
  }
  const notFound = Buffer.from('{"success":false,"message":"Not Found: not recorded"}');

  http
    .createServer((req, res) => {
      const hit = answers.get(replayKey(req.url ?? '', req.headers.authorization));
      if (hit) {
        res.writeHead(hit.status, hit.headers);
        res.end(hit.body);
      } else {
        res.writeHead(404, { 'content-type': 'application/json', 'content-length': notFound.length });
        res.end(notFound);
      }
    })
    .listen(Number(portArg), '127.0.0.1', () => {
      console.log(`bare replay server on http://127.0.0.1:${portArg}/api/v0.1 (${answers.size} answers)`);
    });
  process.on('SIGTERM', () => process.exit(0));
}
