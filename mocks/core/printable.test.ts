import { describe, expect, it } from 'vitest';
import { loggable, printable } from './printable.ts';

describe('printable', () => {
  it('leaves ordinary origins and non-ASCII letters alone', () => {
    expect(printable('http://localhost:5173')).toBe('http://localhost:5173');
    expect(printable('https://münchen.example')).toBe('https://münchen.example');
  });
  it('escapes what could forge a log line or drive the terminal', () => {
    expect(printable('a\nmock: fake line')).toBe('a\\u000amock: fake line');
    expect(printable('\u001b[31mred')).toBe('\\u001b[31mred');
    expect(printable('x\r\u2028y\u202eevil')).toBe('x\\u000d\\u2028y\\u202eevil');
    expect(printable('\u0085\u009b')).toBe('\\u0085\\u009b');
  });
});

describe('loggable', () => {
  it('keeps a query as sent (& < > are no markup in a terminal) and escapes what drives the terminal', () => {
    expect(loggable('/api/v0.1/servers/find?limit=10&page=1')).toBe('/api/v0.1/servers/find?limit=10&page=1');
    expect(loggable('/x?q=<b>')).toBe('/x?q=<b>');
    expect(loggable('/x?q=a\nmock: fake line\u001b[31m')).toBe('/x?q=a\\u000amock: fake line\\u001b[31m');
    expect(loggable('a'.repeat(300))).toMatch(/…\(300 chars\)$/);
  });
});
