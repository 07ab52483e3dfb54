// Writes a generated dataset as a json-server style db.json, to hand-edit and load
// back into the mock with `--data <file>`.
//
//   npm run fixtures:export -- [--seed N] [--servers N] [--now ISO] [--out FILE]   (--help: defaults)
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { programFlags, type FlagTable } from '../cli/flags.ts';
import { generateServers } from '../mocks/dataset/generator.ts';

const FLAGS = {
  seed: {
    type: 'integer',
    value: 'N',
    default: 1337,
    min: 0,
    max: 0xffffffff,
    help: "dataset seed (the mock's default)",
  },
  servers: { type: 'integer', value: 'N', default: 1000, min: 0, max: 5_000_000, help: 'how many servers' },
  now: {
    type: 'custom',
    value: 'ISO',
    shown: 'the current time',
    parse: isoTime,
    help: 'the clock the ages and last pings are relative to',
  },
  out: { type: 'string', value: 'FILE', default: 'fixtures/db.json', help: 'where to write' },
  help: { type: 'boolean', short: 'h', help: 'show this help' },
} as const satisfies FlagTable;

function isoTime(raw: string): Date {
  const now = new Date(raw);
  if (Number.isNaN(now.getTime())) throw new Error(`must be an ISO 8601 date-time, got '${raw}'`);
  return now;
}

function main(): void {
  const values = programFlags('export-fixtures', 'Usage: npm run fixtures:export -- [options]', FLAGS);
  const seed = values.seed;
  const count = values.servers;
  const now = values.now ?? new Date();
  const out = resolve(values.out);

  const servers = generateServers({ seed, count, now });
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify({ servers }, null, 2)}\n`);
  console.log(`export-fixtures: wrote ${servers.length} servers (seed ${seed}, now ${now.toISOString()}) to ${out}`);
}

main();
