import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDataset } from './data-file.ts';
import { generateServers } from './generator.ts';
import type { StoredServer } from './server-row.ts';
import { NOW } from '../../testing/instants.ts';

describe('loadDataset', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sls-dataset-'));
  let n = 0;
  const write = (content: unknown): string => {
    const file = join(dir, `db${n++}.json`);
    writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
    return file;
  };
  const sample = (): StoredServer[] =>
    JSON.parse(JSON.stringify(generateServers({ seed: 7, count: 6, now: new Date(NOW) })));

  it('loads what the generator writes, unchanged', () => {
    const servers = generateServers({ seed: 7, count: 300, now: new Date(NOW) });
    expect(JSON.stringify(loadDataset(write({ servers })))).toBe(JSON.stringify(servers));
  });

  it('accepts an empty list and normalises last_ping to ISO with ms', () => {
    expect(loadDataset(write({ servers: [] }))).toEqual([]);
    const [s] = sample();
    const loaded = loadDataset(write({ servers: [{ ...s, last_ping: '2024-08-26T07:30:29+02:00' }] }));
    expect(loaded[0]!.last_ping).toBe('2024-08-26T05:30:29.000Z');
  });

  const broken = (i: number, patch: (s: Record<string, unknown>) => void): string => {
    const servers = sample() as unknown as Record<string, unknown>[];
    servers[i]!.address = '1.2.3.4';
    servers[i]!.port = 25565;
    patch(servers[i]!);
    const file = write({ servers });
    try {
      loadDataset(file);
    } catch (err) {
      const msg = (err as Error).message;
      expect(msg.startsWith(`${file}: servers[${i}] (`)).toBe(true);
      return msg;
    }
    throw new Error('loadDataset did not throw');
  };

  it('names the file, record, address:port and rule for a schema violation', () => {
    const msg = broken(3, (s) => (s.port = '25565'));
    expect(msg).toMatch(/servers\[3\] \(1\.2\.3\.4:25565\): port must be integer/);
    expect(broken(2, (s) => (s.offline_mode = true))).toMatch(
      /servers\[2\] \(1\.2\.3\.4:25565\): offline_mode must be/,
    );
    expect(broken(1, (s) => delete s.motd)).toMatch(/must have property 'motd'/);
    expect(broken(0, (s) => (s.asn_number = 24940))).toMatch(/asn_number must be string/);
    expect(broken(4, (s) => (s.region = 'XX'))).toMatch(/region must be one of/);
  });

  it('checks favicon, players_online <= players_limit and last_ping', () => {
    expect(broken(1, (s) => delete s.favicon)).toMatch(/favicon/);
    expect(broken(1, (s) => (s.favicon = 'http://example.com/x.png'))).toMatch(/favicon/);
    expect(
      broken(2, (s) => {
        s.players_online = 50;
        s.players_limit = 20;
      }),
    ).toMatch(/players_online \(50\).*players_limit \(20\)/);
    expect(broken(3, (s) => (s.last_ping = 'yesterday'))).toMatch(/last_ping must be an ISO 8601/);
    expect(broken(3, (s) => (s.last_ping = '2024-13-45T99:00:00Z'))).toMatch(/last_ping/);
  });

  it('rejects a duplicate address:port (host case-insensitive)', () => {
    const servers = sample();
    servers[4] = { ...servers[4]!, address: servers[1]!.address.toUpperCase(), port: servers[1]!.port };
    expect(() => loadDataset(write({ servers }))).toThrow(/servers\[4\] .*duplicates servers\[1\]/);
  });

  it(
    "a recorded file (recordedAt): each row is served as old before the mock's clock as it was before " + 'recordedAt',
    () => {
      const [a, b] = sample();
      const recordedAt = '2025-01-15T12:00:00.000Z';
      const file = write({
        recordedAt,
        servers: [
          { ...a, last_ping: '2025-01-15T11:00:00.000Z' },
          { ...b, last_ping: '2025-01-05T12:00:00.000Z' },
        ],
      });
      const later = Date.parse('2026-03-01T00:00:00.000Z');
      expect(loadDataset(file, undefined, { now: later }).map((s) => s.last_ping)).toEqual([
        '2026-02-28T23:00:00.000Z',
        '2026-02-19T00:00:00.000Z',
      ]);
      // Without recordedAt, a hand-made file keeps its times.
      expect(loadDataset(write({ servers: [a] }), undefined, { now: later })[0]!.last_ping).toBe(a!.last_ping);
      expect(() => loadDataset(write({ recordedAt: 'yesterday', servers: [] }))).toThrow(
        /recordedAt must be an ISO 8601 date-time, got "yesterday"/,
      );
    },
  );

  it(
    'rows the recorder marked (x-breaks-spec): named with why and left out while they break the spec, served ' +
      'once fixed',
    () => {
      const servers = sample() as unknown as Record<string, unknown>[];
      servers[1] = { ...servers[1], port: '25565', 'x-breaks-spec': ['port must be integer'] };
      servers[2] = {
        ...servers[2],
        players_online: 90,
        players_limit: 10,
        'x-breaks-spec': ['players_online (90) must not be above players_limit (10)'],
      };
      servers[3] = { ...servers[3], 'x-breaks-spec': ['country_code must match pattern'] };
      const lines: string[] = [];
      const file = write({ servers });
      const loaded = loadDataset(file, undefined, { warn: (l) => lines.push(l) });
      expect(loaded.map((s) => s.address)).toEqual([0, 3, 4, 5].map((i) => servers[i]!.address));
      expect(loaded.every((s) => !('x-breaks-spec' in s))).toBe(true);
      expect(lines[0]).toBe(`mock: ${file}: 2 of 6 servers left out, marked by the recorder as breaking the spec:`);
      expect(lines[1]).toMatch(
        /^ {2}servers\[1\] \([^)]+:25565\): port must be integer \(the recorder saw: port must be integer\)$/,
      );
      expect(lines[2]).toMatch(/^ {2}servers\[2\] .*players_online \(90\) must not be above players_limit \(10\)/);
      expect(lines).toHaveLength(3);
    },
  );

  it('reports malformed JSON, a missing servers array and a missing file clearly', () => {
    const bad = write('{"servers": [');
    expect(() => loadDataset(bad)).toThrow(
      new RegExp(`^${bad.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: not valid JSON`),
    );
    expect(() => loadDataset(write({ server: [] }))).toThrow(/"servers" array/);
    expect(() => loadDataset(write([1, 2]))).toThrow(/"servers" array/);
    expect(() => loadDataset(write({ servers: [42] }))).toThrow(/servers\[0\] \(\?\): must be an object/);
    expect(() => loadDataset(join(dir, 'missing.json'))).toThrow(/missing\.json: cannot read/);
  });
});
