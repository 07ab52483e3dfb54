// Where a run's reports go, and how they are written so that a CI gate never reads a
// stale one: every report of the last run is deleted before anything else happens, and
// each new one appears whole (written beside its place, then renamed over it).
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

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

/** `--reports <dir>` (default ./reports) holds them all; `--junit <path>` moves the JUnit file alone. Relative to the working directory. */
export function reportPaths(options: { reports?: string; junit?: string }, cwd: string = process.cwd()): ReportPaths {
  const dir = resolve(cwd, options.reports ?? DEFAULT_REPORTS_DIR);
  return {
    junit: options.junit ? resolve(cwd, options.junit) : join(dir, 'contract-junit.xml'),
    html: join(dir, 'contract-report.html'),
    markdown: join(dir, 'contract-summary.md'),
    json: join(dir, 'contract-report.json'),
    dreddLog: join(dir, 'contract-dredd.log'),
  };
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
