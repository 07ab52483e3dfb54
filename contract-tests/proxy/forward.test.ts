import { describe, expect, it } from 'vitest';
import { endToEnd, headerRecord, namesKept, rawField } from './forward.ts';

describe('endToEnd', () => {
  it("drops hop-by-hop fields and those Connection names; the judge's record is made from what is kept", () => {
    const raw = ['X-Early', 'kept', 'Keep-Alive', 'timeout=5', 'X-Hop', 'one hop', 'Connection', 'keep-alive, X-Hop'];
    const kept = endToEnd([...raw, 'Set-Cookie', 'a=1', 'set-cookie', 'b=2'].map((v) => Buffer.from(v, 'latin1')));
    expect(kept).toEqual(['X-Early', 'kept', 'Set-Cookie', 'a=1', 'set-cookie', 'b=2']);
    expect(headerRecord(kept)).toEqual({ 'x-early': 'kept', 'set-cookie': 'a=1, b=2' });
    expect(rawField(kept, 'set-cookie')).toBe('a=1, b=2');
    expect(rawField(kept, 'x-hop')).toBeUndefined();
  });

  it('drops every hop-by-hop field in any case, and keeps names of the same length and first letter', () => {
    // Names as long as a hop-by-hop one, some with its first letter: a name's length and first letter only say to look.
    const hop = [
      ['TRANSFER-ENCODING', 'chunked'],
      ['trailer', 'x'],
      ['Proxy-Authorization', 'Basic a'],
      ['Proxy-Authenticate', 'Basic'],
      ['tE', 'trailers'],
      ['UpGrade', 'h2c'],
      ['Proxy-Connection', 'close'],
      ['KEEP-ALIVE', 'timeout=1'],
    ];
    const others = [
      ['X-RateLimit-Limit', '60'],
      ['Trailers', 'y'],
      ['Te-X', 'z'],
      ['Connectiox', '1'],
      ['upgradz', '2'],
      ['-onnection', '3'],
      ['', '4'],
    ];
    const kept = endToEnd([...others.slice(0, 3), ...hop, ...others.slice(3)].flat());
    expect(kept).toEqual(others.flat());
  });

  it('keeps every other field when Connection names only hop-by-hop ones (strings, as node:http gives them)', () => {
    const kept = endToEnd([
      'Host',
      'a.test',
      'Connection',
      'close',
      'Cookie',
      'x=1',
      'cookie',
      'y=2',
      'TE',
      'trailers',
    ]);
    expect(kept).toEqual(['Host', 'a.test', 'Cookie', 'x=1', 'cookie', 'y=2']);
    expect(headerRecord(kept)).toEqual({ host: 'a.test', cookie: 'x=1; y=2' });
    expect(rawField(kept, 'cookie')).toBe('x=1; y=2');
  });

  it('remembers at most 512 names of at most 64 characters, and reads every other name as well', () => {
    const flood = Array.from({ length: 2000 }, (_, i) => [`X-Flood-${i}`, 'v']).flat();
    const long = `X-${'a'.repeat(70)}`;
    const kept = endToEnd([...flood, long, 'v', 'Keep-Alive', 'timeout=5', 'Connection', `close, ${long}`]);
    const record = headerRecord(kept);
    expect(namesKept()).toBeLessThanOrEqual(512);
    expect(kept.length).toBe(flood.length);
    expect(Object.keys(record).length).toBe(2000);
    expect(record['x-flood-1999']).toBe('v');
    // Past the bound a name is still lower-cased and a hop-by-hop one still dropped.
    const past = endToEnd(['X-NEW', '1', 'Keep-Alive', 'timeout=5', 'Upgrade', 'h2c']);
    expect(past).toEqual(['X-NEW', '1']);
    expect(headerRecord(past)).toEqual({ 'x-new': '1' });
  });
});
