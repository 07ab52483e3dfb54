// `server-listing-contract promises` (in a clone: `npm run promises`): the promise map of
// the spec (spec/promises.ts), with its counts: every promise the spec makes, the judges
// that hold it and the family that provokes it, or why none does. No target, no reports.
// Exit 0; 2 on a misuse (a flag, a spec that does not load).
import { resolve } from 'node:path';
import { FlagError, helpLines, parseFlags, type FlagTable } from '../../cli/flags.ts';
import { buildModel, type SpecModel } from '../../spec/model.ts';
import { loadSpec, SPEC_PATH } from '../../spec/load.ts';
import { promiseCounts, promiseMap, type SpecPromise } from '../../spec/promises.ts';

export const PROMISES_FLAGS = {
  spec: { type: 'string', value: '<file>', shown: 'spec/openapi.yaml', help: 'another copy of the spec' },
  format: {
    type: 'string',
    value: '<format>',
    choices: ['text', 'json'],
    default: 'text',
    help: 'text | json',
  },
  uncovered: { type: 'boolean', help: 'only the promises no judge holds' },
  help: { type: 'boolean', short: 'h', help: 'show this help' },
} as const satisfies FlagTable;

export const PROMISES_USAGE = [
  'Usage: server-listing-contract promises [--spec <file>] [--format text|json] [--uncovered]',
  '   (in a clone: npm run promises)',
  '',
  'Every promise the spec makes (each operation, parameter, body property, answer field,',
  'header, security requirement, limit and link, by every way the spec constrains it),',
  'with the judges that fail when a target breaks it and the family that provokes it, or',
  'why no judge holds it; the counts per area first.',
  '',
  ...helpLines(PROMISES_FLAGS, 24),
].join('\n');

export interface PromisesIo {
  out: (text: string) => void;
  err: (text: string) => void;
  cwd: string;
}

/** The map as text: the counts, then a line per promise. */
export function renderPromises(map: readonly SpecPromise[]): string {
  const c = promiseCounts(map);
  const lines = [
    `${c.total} promises: ${c.covered} held by a judge, ${c.uncovered} not`,
    ...Object.entries(c.byArea).map(
      ([area, a]) => `  ${area.padEnd(12)} ${String(a.total).padStart(4)} (${a.covered} held)`,
    ),
    '',
  ];
  for (const p of map) {
    const how = p.uncovered
      ? `NOT HELD: ${p.uncovered}`
      : `${p.judges.join(', ')} (provoked by ${p.provokedBy.join(', ')})`;
    lines.push(`[${p.level}] ${p.id}: ${p.says}`, `    ${how}`);
  }
  return lines.join('\n');
}

export function runPromises(argv: readonly string[], io: PromisesIo): number {
  if (argv.includes('--help') || argv.includes('-h')) {
    io.out(PROMISES_USAGE);
    return 0;
  }
  let model: SpecModel;
  let o: { format: string; uncovered: boolean };
  try {
    const parsed = parseFlags(PROMISES_FLAGS, argv, {}, {});
    o = parsed.values;
    const path = parsed.values.spec ? resolve(io.cwd, parsed.values.spec) : SPEC_PATH;
    try {
      model = buildModel(loadSpec(path));
    } catch (err) {
      throw new FlagError(`--spec ${parsed.values.spec ?? path}: ${(err as Error).message}`);
    }
  } catch (err) {
    if (!(err instanceof FlagError)) throw err;
    io.err(`promises: ${err.message}`);
    return 2;
  }
  const all = promiseMap(model);
  const map = o.uncovered ? all.filter((p) => p.uncovered) : all;
  io.out(
    o.format === 'json' ? JSON.stringify({ counts: promiseCounts(all), promises: map }, null, 2) : renderPromises(map),
  );
  return 0;
}
