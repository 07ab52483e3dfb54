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

/**
 * Every report a run writes, each a pure view of the run's outcome: a new format is one
 * file beside these and one line here. Its file is `<prefix>-<file>` in the reports folder.
 */
const FORMATS = [
  { id: 'json', label: 'JSON', file: 'report.json', render: (o: RunOutcome) => jsonText(o) },
  { id: 'junit', label: 'JUnit', file: 'junit.xml', render: (o: RunOutcome, suite: string) => junit(o, suite) },
  { id: 'html', label: 'HTML', file: 'report.html', render: (o: RunOutcome) => htmlReport(o) },
  { id: 'markdown', label: 'markdown', file: 'summary.md', render: (o: RunOutcome) => markdown(o) },
] as const;

type FormatId = (typeof FORMATS)[number]['id'];

/** Where each report goes, and Dredd's log. */
export type ReportPaths = Record<FormatId, string> & { dreddLog: string };

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
  const paths = Object.fromEntries(FORMATS.map((f) => [f.id, join(dir, `${prefix}-${f.file}`)])) as ReportPaths;
  if (options.junit) paths.junit = resolve(cwd, options.junit);
  paths.dreddLog = join(dir, `${prefix}-dredd.log`);
  return paths;
}

/** Writes an outcome in every format (JUnit's suite named `suiteName`) and says where, for the run's last line. */
export function writeReports(outcome: RunOutcome, paths: ReportPaths, suiteName: 'contract' | 'proxy'): string {
  // Each is written whatever befalls the others; then any that could not be is said.
  const failed: string[] = [];
  for (const f of FORMATS) {
    try {
      writeAtomically(paths[f.id], f.render(outcome, suiteName));
    } catch (err) {
      failed.push(`${f.label} (${paths[f.id]}): ${(err as Error).message}`);
    }
  }
  if (failed.length) throw new Error(`not written: ${failed.join('; ')}`);
  return `Reports: ${FORMATS.map((f) => `${paths[f.id]} (${f.label})`).join(', ')}`;
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
