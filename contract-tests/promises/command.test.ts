// `server-listing-contract promises`: the map with its counts, as text or JSON; only what
// no judge holds with --uncovered; a misuse is exit 2 and says why.
import { describe, expect, test } from 'vitest';
import { promiseCounts, promiseMap } from '../../spec/promises.ts';
import { loadModel } from '../../spec/model.ts';
import { runPromises } from './command.ts';

function run(argv: string[]): { code: number; out: string; err: string } {
  let out = '';
  let err = '';
  const code = runPromises(argv, { out: (t) => (out += t), err: (t) => (err += t), cwd: process.cwd() });
  return { code, out, err };
}

describe('promises', () => {
  const counts = promiseCounts(promiseMap(loadModel()));

  test('the counts first, then each promise with its judges and what provokes it', () => {
    const { code, out } = run([]);
    expect(code).toBe(0);
    expect(out.split('\n')[0]).toBe(
      `${counts.total} promises: ${counts.covered} held by a judge, ${counts.uncovered} not`,
    );
    expect(out).toMatch(/^ {2}parameter +\d+ \(\d+ held\)$/m);
    expect(out).toContain(
      '[observed] findServers query minUsers: bound inclusive: minUsers: a row with players_online equal to the ' +
        'value is kept (>=, inclusive)\n    filters, witness (provoked by meaning)',
    );
  });

  test('--uncovered lists only what no judge holds, each with why; --format json is the map as data', () => {
    const uncovered = run(['--uncovered']).out;
    expect(uncovered.match(/^\s+NOT HELD: /gm)).toHaveLength(counts.uncovered);
    const json = JSON.parse(run(['--format', 'json']).out) as { counts: typeof counts; promises: { id: string }[] };
    expect(json.counts).toEqual(counts);
    expect(json.promises).toHaveLength(counts.total);
  });

  test('a flag it does not know, or a spec that does not load: exit 2 and why', () => {
    expect(run(['--nope'])).toMatchObject({ code: 2, err: expect.stringMatching(/^promises: unknown flag '--nope'/) });
    expect(run(['--spec', 'no-such.yaml'])).toMatchObject({
      code: 2,
      err: expect.stringMatching(/^promises: --spec no-such\.yaml: /),
    });
  });
});
