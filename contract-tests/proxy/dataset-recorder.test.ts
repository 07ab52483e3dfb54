// The recorder: a server once per address and port however often it is seen, the latest
// answer winning field by field; times as the upstream answered them, recordedAt the
// time of its last answer; a pinged-only server completed as a search row; rows that break the spec
// kept and marked; nothing of an operation that is not public, nor a row with a
// credential a request carried.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rememberSecret } from '../shared/mask.ts';
import { loadSpec } from '../../spec/load.ts';
import { loadModel } from '../../spec/model.ts';
import { ageOfText, BREAKS_SPEC, DatasetRecorder } from './dataset-recorder.ts';
import { NOW } from '../../testing/instants.ts';

const model = loadModel();
const op = (id: string) => model.byId.get(id)!;
const doc = loadSpec();
const example = doc.paths['/servers/find']!.get.responses['200'].content['application/json'].examples;
const row = (patch: Record<string, unknown> = {}) => ({
  ...(Object.values<any>(example)[0].value.results[0] as Record<string, unknown>),
  ...patch,
});
const dir = mkdtempSync(join(tmpdir(), 'recorder-'));
let files = 0;
const recorder = () => new DatasetRecorder(model, 'http://up.test/api/v0.1', join(dir, `recorded-${++files}.json`));
const read = (r: DatasetRecorder) =>
  JSON.parse(readFileSync(r.finish().file, 'utf8')) as {
    recordedAt: string;
    servers: Record<string, any>[];
    requests: { path: string }[];
  };

describe('DatasetRecorder', () => {
  it('keeps each server once, the latest answer winning, with its time as answered', () => {
    const r = recorder();
    const a = row({
      address: 'a.example',
      port: 25565,
      players_online: 3,
      last_ping: new Date(NOW - 3_600_000).toISOString(),
    });
    r.note(op('findServers'), {
      path: '/api/v0.1/servers/find?limit=1',
      status: 200,
      json: { displayed: 1, total: 1, results: [a] },
      answeredAt: NOW,
    });
    // Seen again ten minutes later, pinged two minutes before that answer, with more players.
    r.note(op('findServers'), {
      path: '/api/v0.1/servers/find?sort=users',
      status: 200,
      json: {
        displayed: 1,
        total: 1,
        results: [{ ...a, address: 'A.example', players_online: 7, last_ping: new Date(NOW + 480_000).toISOString() }],
      },
      answeredAt: NOW + 600_000,
    });
    r.note(op('findServers'), {
      path: '/api/v0.1/servers/find?limit=1',
      status: 200,
      json: {
        displayed: 1,
        total: 1,
        results: [row({ address: 'b.example', port: 25566, last_ping: new Date(NOW - 86_400_000).toISOString() })],
      },
      answeredAt: NOW,
    });
    const file = read(r);
    expect(file.recordedAt).toBe(new Date(NOW + 600_000).toISOString());
    expect(file.servers.map((s) => `${s.address}:${s.port} ${s.players_online} ${s.last_ping}`)).toEqual([
      `A.example:25565 7 ${new Date(NOW + 480_000).toISOString()}`,
      `b.example:25566 ${file.servers[1]!.players_online} ${new Date(NOW - 86_400_000).toISOString()}`,
    ]);
    expect(file.servers.every((s) => s.favicon === null && !(BREAKS_SPEC in s))).toBe(true);
    expect(file.requests.map((q) => q.path)).toEqual([
      '/api/v0.1/servers/find?limit=1',
      '/api/v0.1/servers/find?sort=users',
      '/api/v0.1/servers/find?limit=1',
    ]);
  });

  it('a ping adds its favicon to a searched server, and makes a row of a server seen only through a ping', () => {
    const r = recorder();
    const searched = row({
      address: 'c.example',
      port: 25565,
      players: [{ uuid: 'NO-ID', name: 'x' }],
      plugins: ['a'],
      last_ping: new Date(NOW).toISOString(),
    });
    r.note(op('findServers'), {
      path: '/api/v0.1/servers/find',
      status: 200,
      json: { displayed: 1, total: 1, results: [searched] },
      answeredAt: NOW,
    });
    const favicon = 'data:image/png;base64,iVBORw0KGgo=';
    const { players: _p, plugins: _q, motd_stripped: _m, ...core } = searched;
    r.note(op('pingServer'), {
      path: '/api/v0.1/status/ping/c.example',
      status: 200,
      json: { status: 'online', refresh: false, server: { ...core, favicon } },
      answeredAt: NOW,
    });
    r.note(op('pingServerHostPort'), {
      path: '/api/v0.1/status/ping/d.example/25570',
      status: 200,
      json: {
        status: 'online',
        refresh: false,
        server: { ...core, address: 'd.example', port: 25570, motd: '§aHello §lWorld', favicon: null },
      },
      answeredAt: NOW,
    });
    const [c, d] = read(r).servers;
    expect(c).toMatchObject({ address: 'c.example', favicon, players: [{ uuid: 'NO-ID', name: 'x' }], plugins: ['a'] });
    expect(d).toMatchObject({
      address: 'd.example',
      port: 25570,
      players: [],
      plugins: [],
      motd_stripped: 'Hello World',
      favicon: null,
    });
    expect(BREAKS_SPEC in d!).toBe(false);
  });

  it(
    'relative times are read to their unit; rows that break the spec are kept and marked; credentials and ' +
      'non-public operations never',
    () => {
      expect([ageOfText('just now'), ageOfText('an hour ago'), ageOfText('3 days ago'), ageOfText('soon')]).toEqual([
        0,
        3_600_000,
        3 * 86_400_000,
        undefined,
      ]);
      const r = recorder();
      r.note(op('findServers'), {
        path: '/api/v0.1/servers/find?relativeTime=true',
        status: 200,
        json: {
          displayed: 3,
          total: 3,
          results: [
            row({ address: 'e.example', port: 1, last_ping: '2 hours ago' }),
            row({ address: 'f.example', port: 2, port_text: 'x', players_online: 99, players_limit: 10 }),
            row({ address: 'g.example', port: 3, motd: 'key sls_live_abcdefghijklmnop' }),
          ],
        },
        answeredAt: NOW,
      });
      r.note(op('listApiKeys'), {
        path: '/api/v0.1/user/apikeys',
        status: 200,
        json: { keys: [{ id: 'k1', name: 'mine' }] },
        answeredAt: NOW,
      });
      rememberSecret('sls_live_abcdefghijklmnop');
      const recording = r.finish();
      const text = readFileSync(recording.file, 'utf8');
      const file = JSON.parse(text) as { servers: Record<string, any>[] };
      expect(recording).toMatchObject({ servers: 2, marked: 1, approximate: 1, withCredential: 1, requests: 1 });
      expect(file.servers[0]).toMatchObject({
        address: 'e.example',
        last_ping: new Date(NOW - 7_200_000).toISOString(),
      });
      expect(file.servers[1]![BREAKS_SPEC]).toEqual(['players_online (99) must not be above players_limit (10)']);
      expect('port_text' in file.servers[1]!).toBe(false);
      expect(text).not.toMatch(/sls_live_|apikeys/);
    },
  );
});
