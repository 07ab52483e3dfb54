// The cookies a mock in process keeps for a unit test, as a browser keeps them.
import { describe, expect, it } from 'vitest';
import { CookieJar } from './cookie-jar.ts';

describe('CookieJar', () => {
  it('keeps what Set-Cookie says, sends it back, and drops it at Max-Age=0 or when it expires', () => {
    const jar = new CookieJar();
    expect(jar.header()).toBeUndefined();
    jar.set('sls_session=abc; Path=/; HttpOnly; SameSite=None; Secure; Partitioned; Max-Age=60', 1000);
    jar.set('theme=dark', 1000);
    expect(jar.header(2000)).toBe('sls_session=abc; theme=dark');
    expect(jar.header(61_001)).toBe('theme=dark');
    jar.set('theme=; Max-Age=0', 70_000);
    expect(jar.header(70_000)).toBeUndefined();
  });

  it('takes a later line for the same name (a partitioned cookie and its Lax copy are one), and Expires', () => {
    const jar = new CookieJar();
    jar.set('s=1; SameSite=None; Secure', 0);
    jar.set('s=2; SameSite=Lax; Expires=Thu, 01 Jan 2099 00:00:00 GMT', 0);
    expect(jar.header(0)).toBe('s=2');
    jar.set('junk', 0);
    jar.clear();
    expect(jar.header(0)).toBeUndefined();
  });
});
