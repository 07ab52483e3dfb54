// The suite's flags, read by the shared parser (cli/flags.ts): names, values, the
// environment, and where the reports go even when the flags do not parse.
import { describe, expect, test } from 'vitest';
import { FlagError } from '../../cli/flags.ts';
import { USAGE, givenTarget, normaliseBaseUrl, parseOptions, reportFlags } from './options.ts';

describe('the command line', () => {
  test('flags and environment', () => {
    const o = parseOptions(['--only', 'findServers,listApiKeys', '--provenance=interface'], {
      CONTRACT_BASE_URL: 'http://x',
    });
    expect(o).toMatchObject({
      baseUrl: 'http://x',
      only: ['findServers', 'listApiKeys'],
      provenance: 'interface',
      allowWrites: false,
      dredd: 'on',
    });
    expect(parseOptions([], { CONTRACT_ALLOW_WRITES: '1' }).allowWrites).toBe(true);
    expect(parseOptions([], {}).budget).toBe(500);
    expect(parseOptions([], {}).seed).toBe(1);
    expect(parseOptions(['--seed', '42'], { CONTRACT_SEED: '7' }).seed).toBe(42);
    expect(parseOptions([], { CONTRACT_SEED: '7' }).seed).toBe(7);
    expect(parseOptions([], {}).pace).toBeUndefined(); // the runner decides: on, or off with --start-mock
    expect(
      parseOptions(['--budget', '50', '--pace', 'off', '--dredd', 'off', '--spec', 'copy.yaml'], {}),
    ).toMatchObject({ budget: 50, pace: 'off', dredd: 'off', spec: 'copy.yaml' });
  });

  test('a misuse names the flag and what it takes', () => {
    expect(() => parseOptions(['--provenance', 'maybe'], {})).toThrow(
      new FlagError("--provenance must be interface, observed or assumed, got 'maybe'"),
    );
    expect(() => parseOptions(['--budget=-1'], {})).toThrow("--budget must be an integer from 0 to 1000000, got '-1'");
    expect(() => parseOptions(['--pace', 'maybe'], {})).toThrow("--pace must be on or off, got 'maybe'");
    expect(() => parseOptions(['--bse-url', 'x'], {})).toThrow("unknown flag '--bse-url': did you mean --base-url?");
    expect(() => parseOptions(['--sed', '3'], {})).toThrow("unknown flag '--sed': did you mean --seed?");
    expect(() => parseOptions(['--provenence', 'interface'], {})).toThrow(
      "unknown flag '--provenence': did you mean --provenance?",
    );
    expect(() => normaliseBaseUrl('ftp://x')).toThrow("--base-url must be http(s), got 'ftp://x'");
    expect(normaliseBaseUrl('http://h:1/api/v0.1/')).toBe('http://h:1/api/v0.1');
  });

  test('where the reports go and what the target was, read even from flags that do not parse', () => {
    expect(reportFlags(['--bogus', '--reports', 'out', '--junit=x.xml'])).toEqual({ reports: 'out', junit: 'x.xml' });
    expect(givenTarget(['--bogus', '--base-url', 'http://t'], {})).toBe('http://t');
    expect(givenTarget(['--start-mock'], {})).toBe('the local mock (--start-mock)');
  });

  test('--help lists every flag', () => {
    for (const flag of [
      '--base-url',
      '--start-mock',
      '--spec',
      '--only',
      '--provenance',
      '--allow-writes',
      '--budget',
      '--pace',
      '--dredd',
      '--strict',
      '--reports',
      '--junit',
      '--seed',
      '--verbose',
    ])
      expect(USAGE).toContain(flag);
  });
});
