// The builder a test writes servers with: every field it is not given filled with a value
// the spec allows, each row at an address of its own, times relative to the mock's clock.
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../spec/load.ts';
import { serverRecordProblems } from '../../spec/server-record.ts';
import { NOW } from '../../testing/instants.ts';
import { agoMs, rowsAt, server } from './server-builder.ts';

describe('server()', () => {
  it('fills every field with a value the spec allows; each row gets an address of its own', () => {
    const [a, b] = rowsAt([{}, { motd: '§aHello §lWorld', players_online: 64 }], NOW);
    for (const row of [a, b]) expect(serverRecordProblems(loadSpec(), row)).toEqual([]);
    expect(a!.address).not.toBe(b!.address);
    expect(b).toMatchObject({ motd_stripped: 'Hello World', players_online: 64, players_limit: 64 });
    expect(a!.last_ping).toBe(new Date(NOW - 5 * 60_000).toISOString());
  });

  it('keeps what it is given, an absolute last_ping included, and a null MOTD as null', () => {
    const given = server({
      address: 'play.example.test',
      port: 25570,
      motd: null,
      last_ping: '2026-01-01T00:00:00.000Z',
    });
    expect(given).toMatchObject({ address: 'play.example.test', port: 25570, motd: null, motd_stripped: null });
    expect(given.pingedAgo).toBeUndefined();
    expect(rowsAt([given], NOW)[0]!.last_ping).toBe('2026-01-01T00:00:00.000Z');
  });

  it('reads a time before the clock in ms or with a unit, and refuses any other', () => {
    expect([agoMs(1500), agoMs('90s'), agoMs('5m'), agoMs('2h'), agoMs('40d')]).toEqual([
      1500,
      90_000,
      300_000,
      7_200_000,
      40 * 86_400_000,
    ]);
    expect(() => agoMs('soon' as never)).toThrow(
      'pingedAgo must be milliseconds or a number with s, m, h or d (\'5m\'), got "soon"',
    );
    expect(() => agoMs(-1)).toThrow(/pingedAgo must be/);
  });
});
