// reports/contract-report.html: the run for a person, in one self-contained file (inline
// CSS, no script, no font or image from anywhere): the verdict first, then the causes
// worst level first, each with its count and one example (its request, what came back,
// the curl line that repeats it), then every failure with its request, what was
// expected, what came back, why, its cause and its repro, and a table of the operations.
import type { PromiseCoverage } from '../../spec/promise-coverage.ts';
import { LEVELS, type Provenance } from '../../spec/provenance.ts';
import type { Cause } from './causes.ts';
import { failsStrictly, failureFields, promisesLine, verdictLine, type RunOutcome } from './outcome.ts';
import type { CheckResult } from '../shared/recorder.ts';
import { forHtml } from './escape.ts';

const esc = forHtml;

const STYLE = `
:root { color-scheme: light; --fail: #b42318; --pass: #067647; --muted: #475467; --line: #d0d5dd; }
* { box-sizing: border-box; }
body {
  margin: 0;
  font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  color: #101828;
  background: #f9fafb;
}
main { max-width: 1100px; margin: 0 auto; padding: 24px; }
h1 { font-size: 32px; line-height: 1.2; margin: 0 0 8px; }
h2 { font-size: 22px; margin: 32px 0 12px; }
.verdict { border-radius: 10px; padding: 20px 24px; color: #fff; }
.verdict.passed { background: var(--pass); }
.verdict.failed { background: var(--fail); }
.verdict.refused { background: #93370d; }
.verdict p { margin: 4px 0 0; font-size: 17px; }
.settings { color: var(--muted); margin: 12px 0 0; padding: 0; list-style: none; font-size: 15px; }
.level {
  display: inline-block;
  min-width: 84px;
  text-align: center;
  border-radius: 999px;
  padding: 1px 10px;
  font-size: 13px;
  font-weight: 600;
  color: #fff;
}
.level.interface { background: #b42318; }
.level.observed { background: #b54708; }
.level.assumed { background: #475467; }
.cause {
  background: #fff;
  border: 1px solid var(--line);
  border-left: 6px solid var(--fail);
  border-radius: 8px;
  padding: 14px 18px;
  margin: 0 0 12px;
}
.cause h3 { font-size: 19px; margin: 0 0 4px; }
.cause .hint { color: var(--muted); margin: 0 0 8px; }
.cause dl { margin: 4px 0 6px; }
.cause details summary { cursor: pointer; color: var(--muted); }
.cause ul, .checks { margin: 0; padding-left: 20px; }
.verdict .bylevel { margin-top: 10px; }
.verdict .bylevel b { margin-right: 14px; }
.verdict .level { border: 1px solid rgba(255, 255, 255, 0.7); }
details.failure {
  background: #fff;
  border: 1px solid var(--line);
  border-radius: 8px;
  margin: 0 0 10px;
  padding: 10px 16px;
}
details.failure summary { cursor: pointer; font-weight: 600; }
dl { display: grid; grid-template-columns: 90px 1fr; gap: 4px 12px; margin: 10px 0 0; }
dt { color: var(--muted); }
dd {
  margin: 0;
  font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  font-size: 14px;
  overflow-wrap: anywhere;
}
table { border-collapse: collapse; width: 100%; background: #fff; }
th, td { border: 1px solid var(--line); padding: 6px 10px; text-align: left; font-size: 15px; }
th { background: #f2f4f7; } td.n { text-align: right; font-variant-numeric: tabular-nums; }
.fail { color: var(--fail); font-weight: 600; } .pass { color: var(--pass); font-weight: 600; }
.figures { color: var(--muted); font-size: 14px; white-space: pre-wrap; }
`;

const badge = (level: Provenance) => `<span class="level ${level}">${level}</span>`;

const fields = (rows: [string, string][]) =>
  `<dl>${rows.map(([k, v]) => `<dt>${k}</dt><dd>${esc(v)}</dd>`).join('')}</dl>`;

function failure(f: CheckResult, cause: { n: number; cause: Cause } | undefined, open: boolean): string {
  const rows = failureFields(f, cause && `${cause.n}. ${cause.cause.title}`);
  const summary = `${badge(f.provenance)} ${esc(f.operationId)}: ${esc(f.check)}`;
  return `<details class="failure"${open ? ' open' : ''}><summary>${summary}</summary>\n${fields(rows)}</details>`;
}

/** A cause: its title, count and hint, one example (the request, what came back, its repro), and its checks folded. */
function causeCard(c: Cause, n: number): string {
  const [example] = c.failures;
  const item = (f: CheckResult) => `<li>${badge(f.provenance)} ${esc(f.operationId)}: ${esc(f.check)}</li>`;
  const shown = example ? failureFields(example).filter(([k]) => k === 'request' || k === 'got' || k === 'repro') : [];
  const count = c.failures.length;
  const s = count === 1 ? '' : 's';
  const hint = `<p class="hint">${count} failure${s}${c.hint ? `: ${esc(c.hint)}` : ''}</p>`;
  const exampleHtml = example
    ? `<p class="example">e.g. ${esc(example.operationId)}: ${esc(example.check)}</p>${fields(shown)}`
    : '';
  const checks = `<ul>${c.failures.map(item).join('')}</ul>`;
  const folded = `<details><summary>the ${count} failing check${s}</summary>${checks}</details>`;
  const title = `<h3>${badge(c.level)} ${n}. ${esc(c.title)}</h3>`;
  return `<section class="cause">${title}${hint}\n${exampleHtml}${folded}</section>`;
}

/** What the run covered of the promise map: per area, then what it never put to the test, and what no judge holds. */
function promisesSection(p: PromiseCoverage): string {
  const cell = (v: number) => `<td class="n">${v}</td>`;
  const rows = Object.entries(p.byArea)
    .map(([area, a]) => `<tr><td>${esc(area)}</td>${cell(a.total)}${cell(a.covered)}${cell(a.exercised)}</tr>`)
    .join('');
  const untested = p.promises.filter((x) => !x.times && !x.uncovered);
  const unheld = p.promises.filter((x) => x.uncovered);
  const item = (x: PromiseCoverage['promises'][number], why: string) =>
    `<li>${badge(x.level)} ${esc(x.id)}: ${esc(why)}</li>`;
  const list = (xs: typeof untested, why: (x: (typeof untested)[number]) => string) =>
    `<ul class="checks">${xs.map((x) => item(x, why(x))).join('')}</ul>`;
  const head = '<tr><th>area</th><th>promises</th><th>held by a judge</th><th>put to the test</th></tr>';
  return [
    `<h2 id="promises">Promises: what the run put to the test</h2><p>${esc(promisesLine(p))}</p>`,
    `<table><thead>${head}</thead><tbody>${rows}</tbody></table>`,
    `<details><summary>${untested.length} held by a judge but not put to the test by this run</summary>` +
      `${list(untested, (x) => `${x.says} (${x.judges.join(', ')})`)}</details>`,
    `<details><summary>${unheld.length} no judge holds</summary>${list(unheld, (x) => x.uncovered ?? '')}</details>`,
  ].join('\n');
}

const TABLE_HEAD = ['operation', 'route', 'result', 'passed', 'failed', 'skipped'];

/** The verdict's line of failures by level, when there are any. */
function byLevel({ tally: t }: RunOutcome): string {
  if (!t.failed) return '';
  const levels = LEVELS.map((l) => `${badge(l)} <b>${t.failuresByLevel[l]}</b>`).join(' ');
  return `<p class="bylevel" id="levels">Failures by level: ${levels}</p>`;
}

/** A list of checks, each with what it says. */
const checkList = (results: readonly CheckResult[], says: (r: CheckResult) => string) =>
  `<ul class="checks">${results.map((r) => `<li>${esc(r.operationId)}: ${esc(r.check)}${says(r)}</li>`).join('')}</ul>`;

export function htmlReport(outcome: RunOutcome): string {
  const t = outcome.tally;
  const state = outcome.exitCode === 0 ? 'passed' : outcome.exitCode === 1 ? 'failed' : 'refused';
  const heading = { passed: 'PASSED', failed: 'FAILED', refused: 'NOT RUN' }[state];
  const body: string[] = [
    `<section class="verdict ${state}" id="verdict"><h1>Contract suite: ${heading}</h1>` +
      `<p>${esc(verdictLine(outcome).replace(/^[A-Z ]+: /, ''))}</p>${byLevel(outcome)}</section>`,
    `<ul class="settings">${outcome.settings.map((s) => `<li>${esc(s.trim())}</li>`).join('')}</ul>`,
  ];
  if (outcome.exitCode !== 2) {
    const causeOf = outcome.causeOf;
    if (outcome.causes.length) {
      // Each cause keeps its checks folded, so the next cause is not pushed out of view.
      body.push('<h2 id="causes">Causes, worst level first</h2>', ...outcome.causes.map((c, i) => causeCard(c, i + 1)));
    }
    if (t.failed) {
      const all = outcome.reports.flatMap((r) => r.results.filter((x) => x.status === 'fail'));
      body.push(
        `<h2 id="failures">Every failure (${all.length})</h2>`,
        ...all.map((f, i) => failure(f, causeOf.get(f), i < 20)),
      );
    }
    if (t.strictFailures.length) {
      body.push(
        '<h2>Skipped checks that fail the run under --strict</h2>',
        checkList(t.strictFailures, (r) => ` (${esc(r.message ?? '')})`),
      );
    }
    body.push(
      '<h2 id="operations">Per operation</h2>',
      `<table><thead><tr>${TABLE_HEAD.map((h) => `<th>${h}</th>`).join('')}</tr></thead><tbody>`,
    );
    for (const r of outcome.reports) {
      const n = (s: CheckResult['status']) => r.results.filter((x) => x.status === s).length;
      const result = n('fail')
        ? '<span class="fail">FAIL</span>'
        : n('pass')
          ? '<span class="pass">PASS</span>'
          : 'SKIP';
      body.push(
        `<tr><td>${esc(r.operationId)}</td><td>${esc(r.route ?? '')}</td><td>${result}</td><td class="n">` +
          `${n('pass')}</td><td class="n">${n('fail')}</td><td class="n">${n('skip')}</td></tr>`,
      );
    }
    body.push('</tbody></table>');
    const skipped = outcome.reports.flatMap((r) => r.results.filter((x) => x.status === 'skip'));
    if (skipped.length) {
      body.push(
        `<h2>Skipped (${skipped.length})</h2>`,
        checkList(
          skipped,
          (r) => `: ${esc(r.message ?? '')}${failsStrictly(r, outcome.strict) ? ' <b>(fails under --strict)</b>' : ''}`,
        ),
      );
    }
  }
  if (outcome.promises) body.push(promisesSection(outcome.promises));
  body.push(
    `<h2>Run</h2><p class="figures">` +
      `${esc([`Started ${outcome.startedAt.toISOString()}`, ...outcome.figures].join('\n'))}</p>`,
  );
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Contract suite: ${heading}</title><style>${STYLE}</style></head>
<body><main>
${body.join('\n')}
</main></body></html>
`;
}
