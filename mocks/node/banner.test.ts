// What a user sees when the mock starts: the banner (where it listens, where the servers
// came from) and the loading progress on stderr: nothing for loads within a second,
// every step once a load takes longer, and always where a snapshot went.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MockInputs } from '../core/state.ts';
import { SNAPSHOT_ABOVE } from '../dataset/snapshot.ts';
import { ORIGIN, testOptions } from '../testing/test-app.ts';
import { banner, progressPrinter } from './banner.ts';
import { buildMock, loadInputs, type Progress } from './load.ts';
import { startMock } from './server.ts';

function printed(events: Progress[], isTTY = false): string {
  let text = '';
  const out = {
    isTTY,
    write: (s: string) => {
      text += s;
      return true;
    },
  } as unknown as NodeJS.WriteStream;
  const print = progressPrinter(out);
  for (const e of events) print(e);
  return text;
}

const total = 1_000_000;

describe('progressPrinter', () => {
  it('prints nothing when loading is over within a second, except the snapshot it wrote', () => {
    expect(
      printed([
        { phase: 'snapshot-read', file: '/c/s.snap', ms: 300 },
        { phase: 'ready', total, ms: 310 },
      ]),
    ).toBe('');
    expect(
      printed([
        { phase: 'snapshot-miss', why: 'no snapshot yet', ms: 5 },
        { phase: 'snapshot-write', file: '/c/s.snap', ms: 900 },
      ]),
    ).toBe('snapshot of the servers written to /c/s.snap: the next start with these flags loads it\n');
  });

  it('a slow load prints its steps (held ones too) and the generation by tenths in a log', () => {
    const events: Progress[] = [{ phase: 'snapshot-miss', why: 'no snapshot yet', ms: 20 }];
    for (let done = 65_536; done < total; done += 65_536)
      events.push({ phase: 'generate', done, total, ms: (done / total) * 2500 });
    events.push(
      { phase: 'index', total, ms: 2600 },
      { phase: 'snapshot-write', file: '/c/s.snap', ms: 3400 },
      { phase: 'ready', total, ms: 3500 },
    );
    const lines = printed(events).trim().split('\n');
    expect(lines[0]).toBe('snapshot: no snapshot yet; generating');
    expect(lines.filter((l) => /^generating 1000000 servers: \d+%$/.test(l)).length).toBeGreaterThanOrEqual(5);
    expect(lines.slice(-3)).toEqual([
      'generated 1000000 servers; sorting them for every sort key',
      'snapshot of the servers written to /c/s.snap: the next start with these flags loads it',
      '1000000 servers ready in 3500 ms',
    ]);
  });

  it('on a terminal the percentage is one line rewritten in place', () => {
    const text = printed(
      [
        { phase: 'generate', done: 500_000, total, ms: 1200 },
        { phase: 'generate', done: 600_000, total, ms: 1400 },
        { phase: 'index', total, ms: 2000 },
      ],
      true,
    );
    expect(text).toBe(
      '\rgenerating 1000000 servers: 50%\rgenerating 1000000 servers: 60%\n' +
        'generated 1000000 servers; sorting them for every sort key\n',
    );
  });
});

describe('banner', () => {
  it("with --host 0.0.0.0 lists URLs a browser opens: the machine's addresses, loopback first", async () => {
    const options = testOptions({ host: '0.0.0.0', servers: 20 });
    const running = await startMock(options);
    try {
      const text = banner(running, options, 5);
      expect(running.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v0\.1$/);
      expect(text).not.toContain('0.0.0.0');
      const also = [...text.matchAll(/^ {2}also on: +(\S+)$/gm)].map((m) => m[1]!);
      expect(also).toHaveLength(running.origins.length - 1);
      for (const url of [running.baseUrl, ...also])
        expect((await fetch(`${url}/servers/find?limit=1`)).status, url).toBe(200);
    } finally {
      await running.close();
    }
  });

  it('says whether the servers came from a snapshot or were written to one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'slm-banner-'));
    const options = testOptions({ servers: SNAPSHOT_ABOVE + 1, cacheDir: dir });
    const shown = (inputs: MockInputs) => {
      const mock = buildMock(options, inputs);
      return banner(
        {
          origin: ORIGIN,
          origins: [ORIGIN],
          baseUrl: `${ORIGIN}${mock.basePath}`,
          mock,
          swap() {},
          close: async () => {},
        },
        options,
        5,
      );
    };
    expect(shown(loadInputs(options))).toMatch(
      /^ {2}snapshot: +written to .*servers-[0-9a-f]+\.snap \(--cache-dir off to skip\)$/m,
    );
    expect(shown(loadInputs(options))).toMatch(/^ {2}snapshot: +loaded from .*servers-[0-9a-f]+\.snap/m);
    expect(shown(loadInputs({ ...options, servers: 100 }))).not.toMatch(/snapshot:/);
  });

  it('says whose usage is counted, where to read it and where it is written', async () => {
    const shown = async (more: Parameters<typeof testOptions>[0]) => {
      const running = await startMock(testOptions(more));
      try {
        return banner(running, testOptions(more), 5);
      } finally {
        await running.close();
      }
    };
    const both = await shown({ consumer: 'web', usageOut: 'web.json' });
    expect(both).toMatch(
      /^ {2}usage: +what web sends is counted: http:\/\/127\.0\.0\.1:\d+\/__mock\/usage, written to web\.json on exit/m,
    );
    expect(await shown({ consumer: 'web' })).toMatch(/^ {2}usage: +what web sends is counted: \S+\/__mock\/usage$/m);
    expect(await shown({})).not.toMatch(/usage:/);
  });
});
