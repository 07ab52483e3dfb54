import { it } from 'vitest';
import { runAgainstReference } from './reference-server/in-process.ts';
import { CAUSES } from './reference-server/named-defects.ts';
import { DEFECTS } from './reference-server/defects.ts';
it('probe', async () => {
  const out: string[] = [];
  for (const d of Object.keys(DEFECTS).filter((x) => x !== 'none')) {
    const { outcome } = await runAgainstReference([d] as never);
    const titles = outcome.causes.map((c) => `[${c.level}] ${c.title} (${c.failures.length})`);
    const ok = titles.length === 1 && CAUSES[d as keyof typeof CAUSES].test(outcome.causes[0]!.title);
    out.push(`${ok ? 'OK  ' : 'BAD '} ${d}: ${titles.join(' || ')}`);
  }
  process.stdout.write(out.join('\n') + '\n');
}, 600000);
