// Turns the recorded checks into what people and CI read: a summary on stdout (each
// operation pass or fail; for each failure the request, what was expected, what came
// back and why) and a JUnit XML file. Inputs are already masked by the recorder.
import type { CheckResult } from './results.ts';

export interface OperationReport {
  operationId: string;
  results: CheckResult[];
}

export function groupByOperation(operationIds: string[], results: CheckResult[]): OperationReport[] {
  const extra = [...new Set(results.map((r) => r.operationId))].filter((id) => !operationIds.includes(id));
  return [...operationIds, ...extra].map((operationId) => ({ operationId, results: results.filter((r) => r.operationId === operationId) }));
}

const count = (results: CheckResult[], status: CheckResult['status']) => results.filter((r) => r.status === status).length;

export function summary(reports: OperationReport[], header: string[]): string {
  const lines = [...header, ''];
  const width = Math.max(...reports.map((r) => r.operationId.length), 10);
  for (const { operationId, results } of reports) {
    const failed = count(results, 'fail');
    const skipped = count(results, 'skip');
    const ran = results.length - skipped;
    const verdict = failed ? 'FAIL' : ran ? 'PASS' : 'SKIP';
    const detail = results.length === 0 ? 'no checks selected' : `${failed ? `${failed} of ${ran} failed` : `${ran} checks`}${skipped ? `, ${skipped} skipped` : ''}`;
    lines.push(`${verdict}  ${operationId.padEnd(width)}  ${detail}`);
    for (const r of results.filter((x) => x.status === 'fail')) {
      lines.push(`      x ${r.check}`);
      if (r.request) lines.push(`          request:  ${r.request}`);
      if (r.expected) lines.push(`          expected: ${r.expected}`);
      if (r.actual) lines.push(`          got:      ${r.actual}`);
      if (r.message) lines.push(`          why:      ${r.message}`);
    }
    for (const r of results.filter((x) => x.status === 'skip')) lines.push(`      - skipped: ${r.check} (${r.message ?? 'no reason given'})`);
  }
  const all = reports.flatMap((r) => r.results);
  const failed = count(all, 'fail');
  lines.push('', `${failed ? 'FAILED' : 'PASSED'}: ${all.length - count(all, 'skip')} checks run, ${failed} failed, ${count(all, 'skip')} skipped`);
  return lines.join('\n');
}

function xml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    // XML 1.0 cannot carry most control characters, even escaped.
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '?');
}

export function junit(reports: OperationReport[], suiteName = 'contract'): string {
  const all = reports.flatMap((r) => r.results);
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xml(suiteName)}" tests="${all.length}" failures="${count(all, 'fail')}" skipped="${count(all, 'skip')}">`,
  ];
  for (const { operationId, results } of reports) {
    out.push(`  <testsuite name="${xml(operationId)}" tests="${results.length}" failures="${count(results, 'fail')}" skipped="${count(results, 'skip')}">`);
    for (const r of results) {
      const open = `    <testcase classname="${xml(`${suiteName}.${operationId}`)}" name="${xml(`${r.check} [${r.provenance}]`)}"`;
      if (r.status === 'pass') out.push(`${open}/>`);
      else if (r.status === 'skip') out.push(`${open}><skipped message="${xml(r.message ?? '')}"/></testcase>`);
      else {
        const body = [`request:  ${r.request ?? '-'}`, `expected: ${r.expected ?? '-'}`, `got:      ${r.actual ?? '-'}`, `why:      ${r.message ?? '-'}`].join('\n');
        out.push(`${open}><failure message="${xml(r.message ?? 'failed')}">${xml(body)}</failure></testcase>`);
      }
    }
    out.push('  </testsuite>');
  }
  out.push('</testsuites>', '');
  return out.join('\n');
}
