// Writes a generated dataset as a json-server style db.json, to hand-edit and load
// back into the mock with `--data <file>`.
//
//   tsx scripts/export-fixtures.ts [--seed N] [--servers N] [--now ISO] [--out file]
//
// Defaults: seed 1337, 1000 servers, now = the current time, out fixtures/db.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { generateServers } from '../mocks/dataset/generator.ts';

const USAGE = 'usage: tsx scripts/export-fixtures.ts [--seed N] [--servers N] [--now ISO] [--out file]';

function fail(message: string): never {
  console.error(`export-fixtures: ${message}\n${USAGE}`);
  process.exit(2);
}

function main(): void {
  let values: { seed?: string; servers?: string; now?: string; out?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      options: {
        seed: { type: 'string' },
        servers: { type: 'string' },
        now: { type: 'string' },
        out: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    fail((err as Error).message);
  }
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const int = (name: string, text: string | undefined, fallback: number, max: number): number => {
    if (text === undefined) return fallback;
    if (!/^\d+$/.test(text) || Number(text) > max) fail(`--${name} must be an integer from 0 to ${max}, got ${JSON.stringify(text)}`);
    return Number(text);
  };
  const seed = int('seed', values.seed, 1337, 0xffffffff);
  const count = int('servers', values.servers, 1000, 5_000_000);
  const now = values.now === undefined ? new Date() : new Date(values.now);
  if (Number.isNaN(now.getTime())) fail(`--now must be an ISO 8601 date-time, got ${JSON.stringify(values.now)}`);
  const out = resolve(values.out ?? 'fixtures/db.json');

  const servers = generateServers({ seed, count, now });
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify({ servers }, null, 2)}\n`);
  console.log(`export-fixtures: wrote ${servers.length} servers (seed ${seed}, now ${now.toISOString()}) to ${out}`);
}

main();
