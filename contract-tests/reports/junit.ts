// The JUnit XML a CI gate reads: one test suite per operation, one test case per check
// (named with its level), `time` on cases, suites and the run; a failure carries the
// request, what was expected, what came back, why, its cause and the curl line that
// repeats it. A run that checked
// nothing (exit 2) is one test case in error saying why, so a gate never reads green.
import type { RunOutcome } from './outcome.ts';
import { failsStrictly } from './outcome.ts';
import { forXml } from './escape.ts';

const xml = forXml;

const seconds = (ms: number | undefined) => ((ms ?? 0) / 1000).toFixed(3);

export function junit(outcome: RunOutcome, suiteName = 'contract'): string {
  const head = '<?xml version="1.0" encoding="UTF-8"?>';
  const stamp = `timestamp="${outcome.startedAt.toISOString()}" time="${seconds(outcome.durationMs)}"`;
  if (outcome.exitCode === 2) {
    const why = outcome.refusal ?? 'the suite refused to run';
    return [
      head,
      `<testsuites name="${xml(suiteName)}" tests="1" failures="0" errors="1" skipped="0" ${stamp}>`,
      `  <testsuite name="pre-flight" tests="1" failures="0" errors="1" skipped="0" ${stamp}>`,
      `    <testcase classname="${xml(suiteName)}.pre-flight" name="the target can be tested" time="` +
        `${seconds(outcome.durationMs)}"><error message="${xml(why)}">` +
        `${xml(`Nothing was checked: ${why}`)}</error></testcase>`,
      '  </testsuite>',
      '</testsuites>',
      '',
    ].join('\n');
  }
  const causeOf = outcome.causeOf;
  const t = outcome.tally;
  const failures = t.failed + t.strictFailures.length;
  const out = [
    head,
    `<testsuites name="${xml(suiteName)}" tests="${t.run + t.skipped}" failures="${failures}" errors="0" ` +
      `skipped="${t.skipped - t.strictFailures.length}" ${stamp}>`,
  ];
  for (const { operationId, results } of outcome.reports) {
    const failed = results.filter((r) => r.status === 'fail' || failsStrictly(r, outcome.strict)).length;
    const skipped = results.filter((r) => r.status === 'skip' && !failsStrictly(r, outcome.strict)).length;
    const time = results.reduce((sum, r) => sum + (r.ms ?? 0), 0);
    out.push(
      `  <testsuite name="${xml(operationId)}" tests="${results.length}" failures="${failed}" errors="0" ` +
        `skipped="${skipped}" time="${seconds(time)}">`,
    );
    for (const r of results) {
      const open =
        `    <testcase classname="${xml(`${suiteName}.${operationId}`)}" name="` +
        `${xml(`${r.check} [${r.provenance}]`)}" time="${seconds(r.ms)}"`;
      if (r.status === 'pass') out.push(`${open}/>`);
      else if (failsStrictly(r, outcome.strict)) {
        out.push(
          `${open}><failure message="${xml(`skipped, and --strict fails a skip: ${r.message ?? ''}`)}">` +
            `${xml(`skipped: ${r.message ?? '-'}`)}</failure></testcase>`,
        );
      } else if (r.status === 'skip') out.push(`${open}><skipped message="${xml(r.message ?? '')}"/></testcase>`);
      else {
        const cause = causeOf.get(r);
        const body = [
          `request:  ${r.request ?? '-'}`,
          `expected: ${r.expected ?? '-'}`,
          `got:      ${r.actual ?? '-'}`,
          `why:      ${r.message ?? '-'}`,
          ...(cause ? [`cause:    ${cause.n}. [${cause.cause.level}] ${cause.cause.title}`] : []),
          ...(r.repro ? [`repro:    ${r.repro}`] : []),
        ].join('\n');
        out.push(`${open}><failure message="${xml(r.message ?? 'failed')}">${xml(body)}</failure></testcase>`);
      }
    }
    out.push('  </testsuite>');
  }
  out.push('</testsuites>', '');
  return out.join('\n');
}
