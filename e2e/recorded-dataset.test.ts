// A recording as the mock meets it: the validation proxy's recorder marks a row the mock's
// loader would refuse (by the same rules, spec/server-record.ts), and the loader then serves
// the others, naming the marked row and why, instead of refusing the whole file.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BREAKS_SPEC, DatasetRecorder } from '../contract-tests/proxy/dataset-recorder.ts';
import { loadDataset } from '../mocks/dataset/data-file.ts';
import { loadSpec } from '../spec/load.ts';
import { loadModel } from '../spec/model.ts';
import { NOW } from '../testing/instants.ts';

const model = loadModel();
const doc = loadSpec();
const example = doc.paths['/servers/find']!.get.responses['200'].content['application/json'].examples;
const row = (patch: Record<string, unknown>) => ({
  ...(Object.values<any>(example)[0].value.results[0] as Record<string, unknown>),
  ...patch,
});
const dir = mkdtempSync(join(os.tmpdir(), 'slm-recorded-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a recorded file with rows the upstream got wrong', () => {
  it(
    'marks each such row with what the loader would refuse; ' + 'the mock serves the rest and names the marked ones',
    () => {
      const recorder = new DatasetRecorder(model, 'http://up.test/api/v0.1', join(dir, 'recorded.json'));
      recorder.note(model.byId.get('findServers')!, {
        path: '/api/v0.1/servers/find',
        status: 200,
        answeredAt: NOW,
        json: {
          displayed: 3,
          total: 3,
          results: [
            row({ address: 'good.example', port: 25565, last_ping: new Date(NOW - 60_000).toISOString() }),
            row({ address: 'when.example', port: 25565, last_ping: 'sometime last week' }),
            row({
              address: 'full.example',
              port: 25565,
              players_online: 120,
              players_limit: 100,
              last_ping: new Date(NOW).toISOString(),
            }),
          ],
        },
      });
      const text = readFileSync(recorder.finish().file, 'utf8');
      const servers = (JSON.parse(text) as { servers: Record<string, any>[] }).servers;
      expect(Object.fromEntries(servers.map((s) => [s.address, s[BREAKS_SPEC]]))).toEqual({
        'good.example': undefined,
        'when.example': ['last_ping must be an ISO 8601 date-time, got "sometime last week"'],
        'full.example': ['players_online (120) must not be above players_limit (100)'],
      });
      const file = join(dir, 'recorded.json');
      const warned: string[] = [];
      const served = loadDataset(file, doc, { now: NOW, warn: (l) => warned.push(l) });
      expect(served.map((s) => s.address)).toEqual(['good.example']);
      expect(warned[0]).toContain('2 of 3 servers left out, marked by the recorder as breaking the spec');
      expect(warned.join('\n')).toMatch(/when\.example:25565\): last_ping must be an ISO 8601 date-time/);
      expect(warned.join('\n')).toMatch(
        /full\.example:25565\): players_online \(120\) must not be above players_limit \(100\)/,
      );
    },
  );
});
