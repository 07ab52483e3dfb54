import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { printed, watch } from './programs.ts';

const node = (code: string) => spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'pipe'] });

describe('a watched program', () => {
  it('gives what it printed on either stream and the capture of its ready line', async () => {
    const p = watch(node("console.error('warming'); setTimeout(() => console.log('listening on http://x:1'), 100)"));
    expect(await printed(p, /listening on (\S+)/)).toBe('http://x:1');
    expect(await p.exit).toBe(0);
    expect(p.out()).toBe('warming\nlistening on http://x:1\n');
  });

  it('rejects with its exit code and output when it exits before it is ready', async () => {
    const p = watch(node("console.error('port in use'); process.exit(2)"));
    await expect(printed(p, /listening on (\S+)/)).rejects.toThrow(/exited \(2\).*port in use/s);
  });
});
