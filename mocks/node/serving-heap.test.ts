// V8 ignores a flag it does not know when it is set at run time (setFlagsFromString says
// nothing): each of the mock's serving flags must be one this Node takes on its command line.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { SERVING_V8_FLAGS } from './serving-heap.ts';

const nodeTakes = (flag: string): boolean => {
  try {
    execFileSync(process.execPath, [flag, '-e', '0'], { stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
};

describe('the V8 flags the mock serves under', () => {
  it('are flags this Node knows (a misspelt one would be ignored without a word)', () => {
    expect(SERVING_V8_FLAGS.length).toBeGreaterThan(0);
    for (const flag of SERVING_V8_FLAGS) expect(nodeTakes(flag), flag).toBe(true);
    expect(nodeTakes('--no-allocation-site-pretenurin')).toBe(false);
  });
});
