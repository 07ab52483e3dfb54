// A usage profile's file, as the mock and the validation proxy write it on exit
// (`--usage-out FILE --consumer NAME`): checked when the program starts (a file that is
// there must be a profile of the same consumer, so a typo never overwrites something
// else), and on exit merged with the profile already there and written whole, beside
// it and renamed over it: a file is always a whole profile, never half of one. Merged,
// not replaced: a profile that forgets what an earlier run used lets a change that breaks
// it pass the gate as a warning, while counting a run twice only raises a number
// (decision 0044).
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, extname } from 'node:path';
import { mergeProfiles, readUsageProfile, type UsageProfile, UsageProfileError } from './usage-profile.ts';

/** A consumer's name as a profile keeps it (`--consumer`): shown in the diff's text and markdown, so plain. */
const CONSUMER_NAME = /^[A-Za-z0-9][A-Za-z0-9._@/-]{0,99}$/;

/** `--consumer NAME`; throws saying what a name must be. */
export function parseConsumerName(raw: string): string {
  if (CONSUMER_NAME.test(raw)) return raw;
  const shown = JSON.stringify(raw.slice(0, 40)).slice(1, -1);
  throw new Error(
    "must be who the usage profile is of, 1 to 100 letters, digits, '.', '_', '-', '@' or '/' " +
      `starting with a letter or digit (e.g. web), got '${shown}'`,
  );
}

/** A `--usage-out` file that cannot take this consumer's profile. */
export class UsageFileError extends Error {}

/** The profile in `file` now, undefined when there is none; throws UsageFileError when it is not `consumer`'s. */
export function existingProfile(file: string, consumer: string): UsageProfile | undefined {
  if (!existsSync(file)) return undefined;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new UsageFileError(`${file} cannot be read: ${(err as Error).message}`);
  }
  let profile: UsageProfile;
  try {
    profile = readUsageProfile(text, file);
  } catch (err) {
    if (!(err instanceof UsageProfileError)) throw err;
    throw new UsageFileError(`${err.message}; give another --usage-out file (it is never overwritten)`);
  }
  if (profile.consumer !== consumer)
    throw new UsageFileError(
      `${file} is the usage profile of '${profile.consumer}', not of '${consumer}': ` +
        'give another --usage-out file, or that --consumer',
    );
  return profile;
}

/** What `saveUsageProfile` wrote. */
export interface SavedProfile {
  file: string;
  /** Requests in the file now (with those of the profile it was merged with). */
  requests: number;
  /** Requests of the profile it was merged with, when there was one. */
  merged?: number;
}

/**
 * Writes `profile` to `file`, merged with the profile of the same consumer already there,
 * through a temporary file renamed over it. When what is there is no longer such a profile
 * (it changed since the start), the profile goes beside it (`web-<pid>.json`), never lost.
 */
export function saveUsageProfile(file: string, profile: UsageProfile): SavedProfile {
  let target = file;
  let before: UsageProfile | undefined;
  try {
    before = existingProfile(file, profile.consumer);
  } catch (err) {
    if (!(err instanceof UsageFileError)) throw err;
    const ext = extname(file);
    target = `${ext ? file.slice(0, -ext.length) : file}-${process.pid}${ext || '.json'}`;
  }
  const whole = before ? mergeProfiles([before, profile], profile.consumer) : profile;
  mkdirSync(dirname(target), { recursive: true });
  const temp = `${target}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, `${JSON.stringify(whole, null, 2)}\n`);
    renameSync(temp, target);
  } catch (err) {
    rmSync(temp, { force: true });
    throw err;
  }
  return { file: target, requests: whole.requests, ...(before ? { merged: before.requests } : {}) };
}
