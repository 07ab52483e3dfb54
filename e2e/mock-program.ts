// The mock as a program, for end-to-end tests: started on a free port with the flags a
// test gives, and a copy of the spec with a parameter or a sort order added (to show
// that a filter or an order the spec declares needs no code in the mock, and, with the
// suite, that its checks hold the mock to it).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const CLI = new URL('../mocks/node/cli.ts', import.meta.url).pathname;
const SPEC = new URL('../spec/openapi.yaml', import.meta.url);
const children: ChildProcessWithoutNullStreams[] = [];

/** Stops every mock startMockProgram started (call it in afterAll). */
export function stopMockPrograms(): void {
  for (const c of children.splice(0)) c.kill('SIGKILL');
}

/** spec/openapi.yaml with `parameter` (YAML, one list item) added to findServers' parameters. */
export function specWith(parameter: string): string {
  const yaml = readFileSync(SPEC, 'utf8');
  const anchor = '        - $ref: "#/components/parameters/offlineOnly"\n';
  if (!yaml.includes(anchor)) throw new Error('findServers no longer lists offlineOnly last: update the anchor');
  const file = join(mkdtempSync(join(tmpdir(), 'slm-spec-')), 'openapi.yaml');
  writeFileSync(file, yaml.replace(anchor, `${anchor}${parameter}`));
  return file;
}

/**
 * spec/openapi.yaml with findServers' `sort` given one more value, `name`, and its order
 * (`{field, direction, compare}` as YAML flow).
 */
export function specWithOrder(name: string, order: string): string {
  const yaml = readFileSync(SPEC, 'utf8');
  const last = '          updated: { field: last_ping, direction: desc, compare: time }\n';
  const values = '        enum: [users, version, address, port, updated]\n';
  if (!yaml.includes(last) || !yaml.includes(values))
    throw new Error("findServers' sort orders changed: update specWithOrder's anchors");
  const file = join(mkdtempSync(join(tmpdir(), 'slm-spec-')), 'openapi.yaml');
  writeFileSync(
    file,
    yaml
      .replace(last, `${last}          ${name}: ${order}\n`)
      .replace(values, `        enum: [users, version, address, port, updated, ${name}]\n`),
  );
  return file;
}

export const ADDRESS_FILTER = `        - name: address
          in: query
          required: false
          allowEmptyValue: true
          description: Only servers whose address contains this text; \`*\` any run.
          x-provenance: assumed
          x-meaning: { rule: substringWildcard, field: address }
          schema:
            type: string
            maxLength: 100
          example: mc
`;

/** The mock's program (small, seeded, quiet) with `args` on a free port: its base URL once it listens. */
export function startMockProgram(args: string[]): Promise<string> {
  const child = spawn(process.execPath, [
    '--import',
    'tsx',
    CLI,
    '--port',
    '0',
    '--quiet',
    '--seed',
    '5',
    '--servers',
    '400',
    '--cache-dir',
    'off',
    ...args,
  ]);
  children.push(child);
  let out = '';
  let err = '';
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => {
      out += d;
      const url = /Mock listening on (\S+)/.exec(out)?.[1];
      if (url) resolve(url);
    });
    child.stderr.on('data', (d) => (err += d));
    child.on('exit', (code) => reject(new Error(`mock exited ${code}: ${err}`)));
  });
}
