import { it } from 'vitest';
import { runAgainstReference } from './reference-server/in-process.ts';
it('probe', async () => {
  for (const d of (process.env.DEFECTS ?? '').split(',')) {
    const { outcome } = await runAgainstReference([d] as never);
    for (const r of outcome.reports.flatMap((x) => x.results).filter((x) => x.status === 'fail'))
      process.stdout.write(
        `${d} | ${r.operationId} | ${r.check} | ${r.method} ${r.route} | ${JSON.stringify(r.evidence)} ${JSON.stringify(r.findings?.map((f) => [f.judge, f.acrossSubjects]))} | ${r.message?.slice(0, 150)}\n`,
      );
  }
}, 600000);
