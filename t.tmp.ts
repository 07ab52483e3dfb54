import { runAgainstReference } from './contract-tests/reference-server/in-process.ts';
const t0 = performance.now();
const r = await runAgainstReference('none', {});
console.log(performance.now() - t0);
console.log(r.outcome.figures.join('\n'));
const p = r.outcome.promises!;
const un = p.promises.filter((x) => !x.times && !x.uncovered);
console.log(un.map((x) => `${x.kind} ${x.id}`).join('\n'));
