// The mock's options: the flag table in mocks/README.md is rendered from the same
// definitions as `--help` and the parser, never written by hand.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS, flagsMarkdown, helpText } from './options.ts';

const README = new URL('./README.md', import.meta.url);

describe('the flag table', () => {
  it('in mocks/README.md is the one the flag definitions render (else: run npm run docs:flags)', () => {
    const readme = readFileSync(README, 'utf8');
    const table = /<!-- flags:start -->\n?([\s\S]*?)\n?<!-- flags:end -->/.exec(readme)?.[1];
    expect(table, 'mocks/README.md lost its <!-- flags:start --> / <!-- flags:end --> markers: put them back, then run npm run docs:flags').toBeDefined();
    expect(table, 'the flag table in mocks/README.md is stale: run npm run docs:flags').toBe(flagsMarkdown());
  });

  it('shows the defaults the parser uses', () => {
    const row = (flag: string) => flagsMarkdown().split('\n').find((l) => l.startsWith(`| \`--${flag}`))!;
    expect(row('port')).toContain(`| \`${DEFAULT_OPTIONS.port}\` |`);
    expect(row('host')).toContain(`| \`${DEFAULT_OPTIONS.host}\` |`);
    expect(row('seed')).toContain(`| \`${DEFAULT_OPTIONS.seed}\` |`);
    expect(row('servers')).toContain(`| \`${DEFAULT_OPTIONS.servers}\` |`);
    expect(row('cors-origin')).toContain(`| \`${DEFAULT_OPTIONS.corsOrigins.join(',')}\` |`);
    expect(row('fixtures')).toContain('| `fixtures/auth.json` |');
    expect(DEFAULT_OPTIONS.fixtures.replace(/\\/g, '/')).toMatch(/\/fixtures\/auth\.json$/);
  });

  it('lists every flag --help lists, and --help shows the same defaults', () => {
    const helpFlags = [...helpText().matchAll(/^ {2}(--[a-z-]+)/gm)].map((m) => m[1]);
    const tableFlags = [...flagsMarkdown().matchAll(/^\| `(--[a-z-]+)/gm)].map((m) => m[1]);
    expect(tableFlags).toEqual(helpFlags.filter((f) => f !== '--help'));
    expect(helpText()).toContain(`(default ${DEFAULT_OPTIONS.port}) [MOCK_PORT]`);
  });
});
