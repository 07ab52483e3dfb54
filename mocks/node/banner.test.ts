// The loading progress a user sees on stderr: nothing for loads within a second, every
// step once a load takes longer, and always where a snapshot went.
import { describe, expect, it } from 'vitest';
import { progressPrinter } from './banner.ts';
import type { Progress } from './load.ts';

function printed(events: Progress[], isTTY = false): string {
  let text = '';
  const out = { isTTY, write: (s: string) => ((text += s), true) } as unknown as NodeJS.WriteStream;
  const print = progressPrinter(out);
  for (const e of events) print(e);
  return text;
}

const total = 1_000_000;

describe('progressPrinter', () => {
  it('prints nothing when loading is over within a second, except the snapshot it wrote', () => {
    expect(printed([{ phase: 'snapshot-read', file: '/c/s.snap', ms: 300 }, { phase: 'ready', total, ms: 310 }])).toBe('');
    expect(printed([{ phase: 'snapshot-miss', why: 'no snapshot yet', ms: 5 }, { phase: 'snapshot-write', file: '/c/s.snap', ms: 900 }])).toBe(
      'snapshot of the servers written to /c/s.snap: the next start with these flags loads it\n',
    );
  });

  it('a slow load prints its steps (held ones too) and the generation by tenths in a log', () => {
    const events: Progress[] = [{ phase: 'snapshot-miss', why: 'no snapshot yet', ms: 20 }];
    for (let done = 65_536; done < total; done += 65_536) events.push({ phase: 'generate', done, total, ms: (done / total) * 2500 });
    events.push({ phase: 'index', total, ms: 2600 }, { phase: 'snapshot-write', file: '/c/s.snap', ms: 3400 }, { phase: 'ready', total, ms: 3500 });
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
    const text = printed([
      { phase: 'generate', done: 500_000, total, ms: 1200 },
      { phase: 'generate', done: 600_000, total, ms: 1400 },
      { phase: 'index', total, ms: 2000 },
    ], true);
    expect(text).toBe('\rgenerating 1000000 servers: 50%\rgenerating 1000000 servers: 60%\ngenerated 1000000 servers; sorting them for every sort key\n');
  });
});
