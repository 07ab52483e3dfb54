import { describe, expect, it } from 'vitest';
import { endToEnd, headerRecord } from './forward.ts';

describe('endToEnd', () => {
  it("drops hop-by-hop fields and those Connection names, from the list and from the judge's record alike", () => {
    const raw = ['X-Early', 'kept', 'Keep-Alive', 'timeout=5', 'X-Hop', 'one hop', 'Connection', 'keep-alive, X-Hop'];
    const record: Record<string, string> = {};
    const kept = endToEnd(
      [...raw, 'Set-Cookie', 'a=1', 'set-cookie', 'b=2'].map((v) => Buffer.from(v, 'latin1')),
      record,
    );
    expect(kept).toEqual(['X-Early', 'kept', 'Set-Cookie', 'a=1', 'set-cookie', 'b=2']);
    expect(record).toEqual({ 'x-early': 'kept', 'set-cookie': 'a=1, b=2' });
    expect(record).toEqual(headerRecord(kept));
  });

  it('keeps every other field when Connection names only hop-by-hop ones (strings, as node:http gives them)', () => {
    const record: Record<string, string> = {};
    const kept = endToEnd(
      ['Host', 'a.test', 'Connection', 'close', 'Cookie', 'x=1', 'cookie', 'y=2', 'TE', 'trailers'],
      record,
    );
    expect(kept).toEqual(['Host', 'a.test', 'Cookie', 'x=1', 'cookie', 'y=2']);
    expect(record).toEqual({ host: 'a.test', cookie: 'x=1; y=2' });
  });
});
