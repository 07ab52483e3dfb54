import { describe, expect, it } from 'vitest';
import { endToEnd, headerRecord, namesKept } from './forward.ts';

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

  it('remembers at most 512 names of at most 64 characters, and reads every other name as well', () => {
    const flood = Array.from({ length: 2000 }, (_, i) => [`X-Flood-${i}`, 'v']).flat();
    const long = `X-${'a'.repeat(70)}`;
    const record: Record<string, string> = {};
    const kept = endToEnd([...flood, long, 'v', 'Keep-Alive', 'timeout=5', 'Connection', `close, ${long}`], record);
    expect(namesKept()).toBeLessThanOrEqual(512);
    expect(kept.length).toBe(flood.length);
    expect(Object.keys(record).length).toBe(2000);
    expect(record['x-flood-1999']).toBe('v');
    // Past the bound a name is still lower-cased and a hop-by-hop one still dropped.
    expect(endToEnd(['X-NEW', '1', 'Keep-Alive', 'timeout=5', 'Upgrade', 'h2c'], record)).toEqual(['X-NEW', '1']);
    expect(record['x-new']).toBe('1');
  });
});
