// `npm run mutants`: the suite against every mutant of the reference server made from the
// spec's promise map (contract-tests/reference-server/mutants.ts), in process, one after
// another: the kill rate, how many were named by exactly one cause, each survivor with
// why and each mutant named by several causes; every verdict (with a repro for each
// killed one) as JSON. `npm test` runs a sample (one mutant per kind of promise).
//
//   npm run mutants                          every mutant (about five minutes)
//   npm run mutants -- --filter 'query minUsers'   those whose id contains the text
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { type FlagTable, programFlags } from '../cli/flags.ts';
import { mutantLines, runMutants } from '../contract-tests/reference-server/mutant-report.ts';
import { mutantsOf } from '../contract-tests/reference-server/mutants.ts';
import { loadModel } from '../spec/model.ts';

const FLAGS = {
  filter: { type: 'string', value: 'TEXT', help: "only the mutants whose id contains TEXT (e.g. 'ServerCore.port')" },
  out: { type: 'string', value: 'FILE', default: 'reports/mutants.json', help: 'every verdict, as JSON' },
  quiet: { type: 'boolean', help: 'no line per mutant while running' },
  help: { type: 'boolean', short: 'h', help: 'show this help' },
} as const satisfies FlagTable;

const args = programFlags('mutants', 'npm run mutants -- [options]', FLAGS);
const all = mutantsOf(loadModel());
const chosen = args.filter ? all.filter((m) => m.id.includes(args.filter!)) : all;
if (!chosen.length) {
  console.error(`mutants: no mutant's id contains '${args.filter}'`);
  process.exit(2);
}
const started = Date.now();
const word = (killed: boolean, causes: number) =>
  !killed ? 'SURVIVED' : causes === 1 ? 'killed' : `killed (${causes} causes)`;
const summary = await runMutants(chosen, (v, i) => {
  if (!args.quiet) console.error(`[${i}/${chosen.length}] ${word(v.killed, v.causes.length)} ${v.id}`);
});
console.log(mutantLines(summary).join('\n'));
console.log(`\nTime: ${((Date.now() - started) / 1000).toFixed(0)} s`);
mkdirSync(dirname(args.out), { recursive: true });
writeFileSync(args.out, `${JSON.stringify(summary, null, 2)}\n`);
console.log(`Every verdict, with a repro for each killed mutant: ${args.out}`);
