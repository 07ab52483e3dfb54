// The one table of check families, in the order the run spends its budget: the
// fixed-size families first, then the sample, which takes what is left (keeping room
// for the pings), then the generated requests within what is left after that, then
// coverage, which reads what all the others provoked. Families choose and send requests;
// the registry's judges (spec/judges/) hold every answer of the run, Dredd's included, to
// the spec, and the run gives their verdicts at the end (run/judging.ts). A new family is
// one file exporting a `Family` and one line here (contract-tests/README.md shows one).
import { authFamily } from './auth.ts';
import { corsFamily } from './cors.ts';
import { coverageFamily } from './coverage.ts';
import { edgesFamily } from './edges.ts';
import { errorsFamily } from './error-answers.ts';
import { generatedFamily } from './generated.ts';
import { keysFamily } from './key-life.ts';
import { meaningFamily } from './meaning/rule-checks.ts';
import { negativeFamily } from './negative.ts';
import { pagingFamily } from './paging.ts';
import { publicFamily } from './public.ts';
import type { Family } from './run-parts.ts';
import { pingFamily } from './sample/ping.ts';
import { sampleFamily } from './sample/sample.ts';

export type { Family, Given, Need, RunParts } from './run-parts.ts';
export { handOut } from './run-parts.ts';

export const FAMILIES: readonly Family[] = [
  authFamily,
  publicFamily,
  pagingFamily,
  keysFamily,
  meaningFamily,
  negativeFamily,
  edgesFamily,
  errorsFamily,
  corsFamily,
  sampleFamily,
  pingFamily,
  generatedFamily,
  coverageFamily,
];
