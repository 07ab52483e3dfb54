// A usage profile's file: a consumer's name as the flags take it, a file that is another
// consumer's (or no profile) refused before anything is written, and on exit the profile
// merged with the one there, written whole (no temporary file left), or beside a file
// that changed meanwhile, never lost.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { existingProfile, parseConsumerName, saveUsageProfile, UsageFileError } from './usage-file.ts';
import { UsageAccumulator, readUsageProfile } from './usage-profile.ts';

function profileOf(consumer: string, country: number) {
  const usage = new UsageAccumulator(consumer, { recordedBy: 'mock' });
  for (let i = 0; i < country; i++)
    usage.note({ operationId: 'findServers', query: { country: 'DE' }, status: 200, at: Date.UTC(2026, 0, 1 + i) });
  return usage.toJSON();
}

describe('a usage profile file', () => {
  it('takes plain consumer names only', () => {
    for (const name of ['web', 'admin-ui', 'team/web@2', 'a.b_c']) expect(parseConsumerName(name)).toBe(name);
    for (const bad of ['', 'web frontend', '-web', 'x'.repeat(101), 'w\u001b[31m', '`web`'])
      expect(() => parseConsumerName(bad)).toThrow(/^must be who the usage profile is of, 1 to 100 letters/);
  });

  it('is merged with the profile of the same consumer already there, and written whole', () => {
    const dir = mkdtempSync(join(tmpdir(), 'usage-file-'));
    const file = join(dir, 'profiles', 'web.json');
    expect(existingProfile(file, 'web')).toBeUndefined();
    expect(saveUsageProfile(file, profileOf('web', 2))).toEqual({ file, requests: 2 });
    expect(saveUsageProfile(file, profileOf('web', 3))).toEqual({ file, requests: 5, merged: 2 });
    const saved = readUsageProfile(readFileSync(file, 'utf8'), file);
    expect(saved).toMatchObject({ consumer: 'web', recordedBy: 'mock', requests: 5 });
    expect(saved.operations.findServers?.parameters.country?.requests).toBe(5);
    expect(saved.from).toBe('2026-01-01T00:00:00.000Z');
    expect(readdirSync(join(dir, 'profiles'))).toEqual(['web.json']);
  });

  it("refuses a file that is another consumer's profile, or none, naming it", () => {
    const dir = mkdtempSync(join(tmpdir(), 'usage-file-'));
    const other = join(dir, 'app.json');
    saveUsageProfile(other, profileOf('app', 1));
    expect(() => existingProfile(other, 'web')).toThrow(
      new UsageFileError(
        `${other} is the usage profile of 'app', not of 'web': give another --usage-out file, or that --consumer`,
      ),
    );
    const notes = join(dir, 'notes.json');
    writeFileSync(notes, '{"todo": 1}');
    expect(() => existingProfile(notes, 'web')).toThrow(
      /notes\.json: not a usage profile .*it is never overwritten\)$/,
    );
  });

  it("goes beside a file that stopped being the consumer's profile meanwhile, never over it", () => {
    const dir = mkdtempSync(join(tmpdir(), 'usage-file-'));
    const file = join(dir, 'web.json');
    writeFileSync(file, 'not json');
    const saved = saveUsageProfile(file, profileOf('web', 1));
    expect(saved.file).toBe(join(dir, `web-${process.pid}.json`));
    expect(readFileSync(file, 'utf8')).toBe('not json');
    expect(readUsageProfile(readFileSync(saved.file, 'utf8'), saved.file).requests).toBe(1);
  });
});
