// Exchanges for the judges' tests: a request line and an answer, in a few words.
import type { Exchange, Known } from '../judges/exchange.ts';

export const JSON_TYPE = { 'content-type': 'application/json' };
export const LIMIT_HEADERS = {
  'x-ratelimit-limit': '20',
  'x-ratelimit-remaining': '19',
  'x-ratelimit-reset': '1795456260',
};

/**
 * `GET /api/v0.1/...` answered `status` with `body` (JSON unless a string),
 * the rate-limit headers and JSON's type by default.
 */
export function exchange(
  line: string,
  status: number,
  body: unknown,
  options: { headers?: Record<string, string>; request?: Record<string, string>; sent?: string; known?: Known } = {},
): Exchange {
  const [method, target] = line.split(' ') as [string, string];
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return {
    request: {
      method,
      target,
      headers: Object.fromEntries(Object.entries(options.request ?? {}).map(([k, v]) => [k.toLowerCase(), v])),
      ...(options.sent !== undefined ? { body: options.sent } : {}),
    },
    answer: { status, headers: options.headers ?? { ...JSON_TYPE, ...LIMIT_HEADERS }, text, json },
    at: Date.parse('2026-01-01T00:00:00Z'),
    ...(options.known ? { known: options.known } : {}),
  };
}
