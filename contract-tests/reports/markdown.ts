// The run as GitHub-flavoured markdown, for a CI job's summary page
// ($GITHUB_STEP_SUMMARY): the verdict, failures per level, the causes worst level first,
// each with its count, one example and the curl line that repeats it, their checks folded
// away (each with why and its repro), and one row per operation.
import { LEVELS } from '../../spec/provenance.ts';
import { verdictLine, type RunOutcome } from './outcome.ts';
import type { CheckResult } from '../shared/recorder.ts';
import { forCode, forFence, forMarkdown } from './escape.ts';

const md = forMarkdown;
const code = forCode;
const SHOWN = 300;

function failureItem(f: CheckResult): string {
  return (
    `- \`${f.provenance}\` **${md(f.operationId)}**: ${md(f.check)}` +
    `${f.message ? `<br>${md(f.message, SHOWN)}` : ''}${f.repro ? `<br>${code(f.repro)}` : ''}`
  );
}

export function markdown(outcome: RunOutcome): string {
  const mark = outcome.exitCode === 0 ? '✅' : outcome.exitCode === 1 ? '❌' : '⛔';
  const lines = [
    `## ${mark} Contract suite: ${md(verdictLine(outcome))}`,
    '',
    ...outcome.settings.map((s) => `> ${md(s.trim())}`),
    '',
  ];
  if (outcome.exitCode === 2)
    return [...lines, 'Nothing was checked. The JUnit report holds one error saying why.', ''].join('\n');
  const t = outcome.tally;
  if (t.failed) {
    lines.push('| level | failures |', '|---|---|', ...LEVELS.map((l) => `| ${l} | ${t.failuresByLevel[l]} |`), '');
  }
  if (outcome.causes.length) {
    lines.push('### Causes, worst level first', '');
    outcome.causes.forEach((c, i) => {
      const [example] = c.failures;
      lines.push(
        `${i + 1}. \`${c.level}\` **${md(c.title)}**: ${c.failures.length} failure` +
          `${c.failures.length === 1 ? '' : 's'}${c.hint ? `<br>${md(c.hint)}` : ''}`,
        '',
      );
      if (example) {
        lines.push(
          `   e.g. **${md(example.operationId)}**: ${md(example.check)}` +
            `${example.actual ? `<br>got ${code(example.actual, SHOWN)}` : ''}`,
          '',
        );
        if (example.repro) lines.push(...forFence(example.repro, 'sh', '   '), '');
      }
      lines.push(
        `   <details><summary>the ${c.failures.length} failing check${c.failures.length === 1 ? '' : 's'}</summary>`,
        '',
        ...c.failures.map((f) => `   ${failureItem(f)}`),
        '',
        '   </details>',
        '',
      );
    });
    lines.push('');
  }
  if (t.strictFailures.length)
    lines.push(
      '### Skipped checks that fail the run under --strict',
      '',
      ...t.strictFailures.map((r) => `- **${md(r.operationId)}**: ${md(r.check)} (${md(r.message ?? '')})`),
      '',
    );
  lines.push('### Per operation', '', '| operation | result | passed | failed | skipped |', '|---|---|---|---|---|');
  for (const r of outcome.reports) {
    const n = (s: CheckResult['status']) => r.results.filter((x) => x.status === s).length;
    lines.push(
      `| ${md(r.operationId)}${r.route ? ` (\`${md(r.route)}\`)` : ''} | ` +
        `${n('fail') ? '❌ fail' : n('pass') ? '✅ pass' : 'skip'} | ${n('pass')} | ${n('fail')} | ${n('skip')} |`,
    );
  }
  lines.push('', ...outcome.figures.map((f) => `${md(f)}  `), '');
  return lines.join('\n');
}
