// The checks beyond Dredd's replay, run once Dredd's transactions are done (from the
// hooks' afterAll, in the same process, so one budget, one pacer and one hygiene scan
// see every request). The order spends the budget on fixed-size families first and
// lets the sample, which can use any number of requests, take what is left.
import type { SuiteContext } from './context.ts';
import { checkProvokedErrors, checkRouting, recordCoverage } from './errors.ts';
import { checkOperationMeanings, combinations, meaningsWanted } from './meanings.ts';
import { checkNegatives } from './negative.ts';
import { pingOperations, pingSample } from './ping-sample.ts';
import { Reader } from './reader.ts';
import { rowsOf } from './rows.ts';
import { Sampler, type SampleStats } from './sample.ts';

/** Servers pinged through each ping form; the budget keeps room for them while sampling. */
const PINGED_SERVERS = 6;

export async function runDepthChecks(ctx: SuiteContext): Promise<SampleStats | undefined> {
  const reader = new Reader(ctx);
  // The operation whose rows are sampled: the one whose parameters page and sort them.
  const searched = ctx.model.operations.find((o) => o.rows && o.parameters.some((p) => p.meaning?.rule === 'page'));
  const sampler = searched ? new Sampler(ctx, reader, searched) : undefined;
  const sampling = Boolean(sampler && ctx.selected(sampler.op) && sampler.wanted());
  const pings = pingOperations(ctx);
  // The first pages feed the meaning probes and the pings, whoever needs them.
  const meanings = ctx.model.operations.filter((o) => ctx.selected(o) && o.rows && meaningsWanted(ctx, o));
  if (sampler && (sampling || pings.length || meanings.includes(sampler.op))) await sampler.seed();

  for (const op of meanings) {
    if (op === sampler?.op) await checkOperationMeanings(ctx, reader, op, sampler.seen);
    else {
      // A lookup without paging answers all its rows at once: they are what its probes draw from.
      const all = await reader.get(op);
      await checkOperationMeanings(ctx, reader, op, (rowsOf(op, all.response?.json) ?? []).map((row) => ({ row, query: {} })));
    }
  }
  await checkNegatives(ctx, reader.headers);
  await checkRouting(ctx);
  await checkProvokedErrors(ctx, reader.headers);

  if (sampler && sampling) {
    sampler.plan(combinations(sampler.op, sampler.seen));
    await sampler.walk(pings.length * (PINGED_SERVERS + 1));
    await sampler.record();
  }
  if (sampler && pings.length) sampler.notePinged(await pingSample(ctx, reader, sampler.pickServers(PINGED_SERVERS)));
  recordCoverage(ctx);
  return sampler?.stats;
}
