// The transport: within the budget (cleanup always), asked again after a 429, every
// answer observed, and nothing more but the cleanup once the run is stopped; an answer
// whose body a client cannot use is an answer, marked so.
import { createServer, type AddressInfo } from 'node:net';
import { describe, expect, test } from 'vitest';
import { findingsOf, JudgeContext } from '../../spec/judges/registry.ts';
import { loadModel } from '../../spec/model.ts';
import { judgedExchange } from '../run/judging.ts';
import { Budget } from './budget.ts';
import { type HttpResponse, send } from './http.ts';
import { Pacer } from './pacing.ts';
import { Transport } from './transport.ts';

function transport(answers: number[], options: { budget?: number; signal?: AbortSignal } = {}) {
  const sent: string[] = [];
  const seen: number[] = [];
  const slept: number[] = [];
  const fetch = async (request: Request) => {
    sent.push(`${request.method} ${new URL(request.url).pathname}`);
    const status = answers.shift() ?? 200;
    return new Response(JSON.stringify({ ok: status }), {
      status,
      headers: { 'content-type': 'application/json', ...(status === 429 ? { 'retry-after': '2' } : {}) },
    });
  };
  const pacer = new Pacer({
    honourRemaining: true,
    groups: [],
    now: () => 0,
    sleep: async (ms) => void slept.push(ms),
  });
  const http = new Transport({
    baseUrl: 'http://t.test/api',
    fetch,
    budget: new Budget(options.budget ?? 10),
    pacer,
    signal: options.signal,
    observe: (_req, res: HttpResponse) => void seen.push(res.status),
  });
  return { http, sent, seen, slept };
}

describe('Transport', () => {
  test(
    'spends the budget; past it a request is not sent ' + 'and says why; cleanup is sent whatever the budget',
    async () => {
      const { http, sent } = transport([], { budget: 1 });
      expect((await http.send({ method: 'GET', url: http.url('/a') })).response?.status).toBe(200);
      expect(await http.send({ method: 'GET', url: http.url('/b') })).toMatchObject({
        skipped: 'the request budget is used up (--budget 1)',
      });
      expect((await http.send({ method: 'DELETE', url: http.url('/c') }, { essential: true })).response?.status).toBe(
        200,
      );
      expect(sent).toEqual(['GET /api/a', 'DELETE /api/c']);
      expect(http.budget).toMatchObject({ spent: 1, refused: 1, cleanup: 1 });
    },
  );

  test('a 429 is waited out as Retry-After says and asked again; every answer is observed', async () => {
    const { http, sent, seen, slept } = transport([429, 429, 200]);
    expect((await http.send({ method: 'GET', url: http.url('/a') })).response?.status).toBe(200);
    expect(sent).toHaveLength(3);
    expect(seen).toEqual([429, 429, 200]);
    expect(slept).toEqual([2000, 2000]);
  });

  test('once the run is stopped, nothing is sent but the cleanup', async () => {
    const stop = new AbortController();
    const { http, sent } = transport([], { signal: stop.signal });
    stop.abort('SIGTERM');
    expect(await http.send({ method: 'GET', url: http.url('/a') })).toMatchObject({
      skipped: 'the run was stopped (SIGTERM)',
    });
    expect((await http.send({ method: 'DELETE', url: http.url('/k') }, { essential: true })).response?.status).toBe(
      200,
    );
    expect(sent).toEqual(['DELETE /api/k']);
  });
});

describe('send, over a real socket: an answer whose body a client cannot use', () => {
  test(
    'a body cut short, gzip that does not decode, an unknown encoding: an answer marked unreadable, which the ' +
      'readable judge fails',
    async () => {
      const server = createServer((socket) => {
        socket.on('error', () => {});
        socket.once('data', (d: Buffer) => {
          const path = d.toString('latin1').split(' ')[1]!;
          const head = (extra: string, length: number) =>
            `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n${extra}Content-Length: ${length}\r\n\r\n`;
          if (path === '/cut') socket.end(`${head('', 50)}{"unique_regions":`);
          else if (path === '/gzip') socket.end(`${head('Content-Encoding: gzip\r\n', 9)}not gzip!`);
          else socket.end(`${head('Content-Encoding: x-odd\r\n', 2)}{}`);
        });
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      try {
        const kinds: string[] = [];
        for (const path of ['/cut', '/gzip', '/odd']) {
          // Asked for the regions; the socket answers by the path it is given.
          const request = { method: 'GET', url: `${base}/api/v0.1/metadata/regions` };
          const res = await send((r) => fetch(new Request(`${base}${path}`, r)), request);
          expect(res.text).toBe('');
          kinds.push(res.unreadable!.kind);
          const found = findingsOf(judgedExchange(request, res), JudgeContext.of(loadModel()));
          expect(found.map((f) => f.judge)).toContain('readable');
        }
        expect(kinds).toEqual(['cut', 'undecodable', 'unknown-encoding']);
      } finally {
        await new Promise<void>((r) => server.close(() => r()));
      }
    },
  );
});
