// Where a run's reports go, and how they are written so that a CI gate never reads a
// stale one: every report of the last run is deleted before anything else happens, and
// each new one appears whole (written beside its place, then renamed over it).
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { htmlReport } from './html.ts';
import { jsonText } from './json.ts';
import { junit } from './junit.ts';
import { markdown } from './markdown.ts';
import type { RunOutcome } from './outcome.ts';

export interface ReportPaths {
  junit: string;
  html: string;
  /** The summary as markdown, for a CI job's summary page. */
  markdown: string;
  /** Every check and cause for a program (contract-report.schema.json). */
  json: string;
  dreddLog: string;
}

export const DEFAULT_REPORTS_DIR = 'reports';

/**
 * `--reports <dir>` (default ./reports) holds them all; `--junit <path>` moves the JUnit file alone. Relative to
 * the working directory. `prefix` names the program: the suite's `contract-*`, the validation proxy's `proxy-*`.
 */
export function reportPaths(
  options: { reports?: string; junit?: string },
  cwd: string = process.cwd(),
  prefix: 'contract' | 'proxy' = 'contract',
): ReportPaths {
  const dir = resolve(cwd, options.reports ?? DEFAULT_REPORTS_DIR);
  return {
    junit: options.junit ? resolve(cwd, options.junit) : join(dir, `${prefix}-junit.xml`),
    html: join(dir, `${prefix}-report.html`),
    markdown: join(dir, `${prefix}-summary.md`),
    json: join(dir, `${prefix}-report.json`),
    dreddLog: join(dir, `${prefix}-dredd.log`),
  };
}

/** Writes an outcome in every format (JUnit's suite named `suiteName`) and says where, for the run's last line. */
export function writeReports(outcome: RunOutcome, paths: ReportPaths, suiteName: 'contract' | 'proxy'): string {
  writeAtomically(paths.json, jsonText(outcome));
  writeAtomically(paths.junit, junit(outcome, suiteName));
  writeAtomically(paths.html, htmlReport(outcome));
  writeAtomically(paths.markdown, markdown(outcome));
  return `Reports: ${paths.json} (JSON), ${paths.junit} (JUnit), ${paths.html} (HTML), ${paths.markdown} (markdown)`;
}

/** Removes the last run's reports: if this run dies before writing its own, none is left to mislead. */
export function clearReports(paths: ReportPaths): void {
  for (const file of Object.values(paths)) rmSync(file, { force: true });
}

export function writeAtomically(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, text);
  renameSync(temp, file);
}
