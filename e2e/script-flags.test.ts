// Every script reads its command line with cli/flags.ts: a misuse is one line naming
// the flag and exit 2, before anything starts (no mock, no Prism, no load).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const script = (name: string) => new URL(`../scripts/${name}.ts`, import.meta.url).pathname;

describe('the scripts refuse a misuse with exit 2', () => {
  it.each([
    ['bench', ['--servers', '0'], /^bench: --servers must be an integer from 1 to 5000000, got '0'$/],
    ['fuzz', ['--cout', '5'], /^fuzz: unknown flag '--cout': did you mean --count\? \(see --help\)$/],
    ['soak', ['--minutes', 'soon'], /^soak: --minutes must be a number of at least 0\.1, got 'soon'$/],
  ])('%s %s', async (name, args, message) => {
    const err = await run(process.execPath, ['--import', 'tsx', script(name), ...args]).then(
      () => ({ code: 0, stderr: '' }),
      (e: { code: number; stderr: string }) => e,
    );
    expect(err.code).toBe(2);
    expect(err.stderr.trim()).toMatch(message);
  });
});
