// `server-listing-contract diff --base <file|git ref> [--head <file>]` (in a clone:
// `npm run contract -- diff ...`): the changes between two versions of the spec, each
// under a named rule, weighed by usage profiles when given. Exit 0: nothing at the
// `--fail-on` severity (or no --fail-on); 1: a change at it or worse; 2: a misuse (a
// flag, an unreadable or invalid document or profile, a ref git cannot read).
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { FlagError, helpLines, parseFlags, type FlagTable } from '../../cli/flags.ts';
import { SPEC_PATH } from '../../spec/load.ts';
import { readUsageProfile, UsageProfileError, type UsageProfile } from '../../spec/usage-profile.ts';
import { DocumentError, diffVersions, versionOf } from './diff.ts';
import { renderJson, renderMarkdown, renderText, reportOf, type DiffReport } from './report.ts';
import { RULES, type Severity } from './rules.ts';
import { fromFile, sourceOf, type Source } from './source.ts';
import { weighAll } from './usage.ts';

export const DIFF_FLAGS = {
  base: {
    type: 'string',
    value: '<file|ref>',
    help: 'the earlier version: a file, or a git ref (main, HEAD~1, a tag)',
  },
  head: {
    type: 'string',
    value: '<file>',
    shown: 'the working copy of --spec-path',
    help: 'the later version',
  },
  'spec-path': {
    type: 'string',
    value: '<path>',
    default: 'spec/openapi.yaml',
    help: 'where the spec lives in the repository (for a git ref, and the working copy)',
  },
  usage: {
    type: 'list',
    value: '<file>...',
    help: 'usage profiles to weigh each change by (a breaking change no recorded consumer uses is a warning)',
  },
  format: {
    type: 'string',
    value: '<format>',
    choices: ['text', 'markdown', 'json'],
    default: 'text',
    help: 'text | markdown | json',
  },
  'fail-on': {
    type: 'string',
    value: '<severity>',
    choices: ['breaking', 'warning'],
    help: 'exit 1 when a change of this severity or worse is found',
  },
  'list-rules': { type: 'boolean', help: 'print every rule with whom it breaks and its severity, and exit' },
  help: { type: 'boolean', short: 'h', help: 'show this help' },
} as const satisfies FlagTable;

export const DIFF_USAGE = [
  'Usage: server-listing-contract diff --base <file|git ref> [--head <file>] [options]',
  '   (in a clone: npm run contract -- diff --base main)',
  '',
  'Every change between two versions of the spec, each under a named rule: whom it breaks',
  '(clients, implementations, both, or nobody), the level its x-provenance gives, and a',
  'severity (breaking, warning, info) that --fail-on reads.',
  '',
  ...helpLines(DIFF_FLAGS, 24),
  '',
  'Exit: 0 nothing at the --fail-on severity, 1 a change at it or worse, 2 a misuse',
  '(a wrong flag, a document or usage profile that cannot be read, a ref git cannot read).',
].join('\n');

export interface DiffIo {
  out: (text: string) => void;
  err: (text: string) => void;
  cwd: string;
}

function ruleList(): string {
  const rows = [...RULES.values()].map(
    (r) => `${r.severity.padEnd(9)} ${r.breaks.padEnd(16)} ${r.id}: ${r.about}${r.why ? ` (${r.why})` : ''}`,
  );
  return [`${'severity'.padEnd(9)} ${'breaks'.padEnd(16)} rule`, ...rows].join('\n');
}

function readProfiles(files: readonly string[], cwd: string): UsageProfile[] {
  return files.map((file) => {
    let text: string;
    try {
      text = readFileSync(resolve(cwd, file), 'utf8');
    } catch (err) {
      throw new UsageProfileError(
        `--usage ${file}: cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
      );
    }
    return readUsageProfile(text, `--usage ${file}`);
  });
}

function headOf(given: string | undefined, specPath: string, specPathGiven: boolean, cwd: string): Source {
  if (given) return fromFile(given, cwd, '--head');
  if (specPathGiven || existsSync(resolve(cwd, specPath))) return fromFile(specPath, cwd, '--head (the working copy)');
  // Outside a clone, without a spec of one's own: the spec the package ships.
  return fromFile(SPEC_PATH, cwd, '--head (the packaged spec)');
}

/** The diff as a program: its exit code. */
export function runDiff(argv: readonly string[], io: DiffIo): number {
  if (argv.includes('--help') || argv.includes('-h')) {
    io.out(DIFF_USAGE);
    return 0;
  }
  let report: DiffReport;
  let format: string;
  try {
    const parsed = parseFlags(DIFF_FLAGS, argv, {}, { positionals: true });
    const o = parsed.values;
    if (o.listRules) {
      io.out(ruleList());
      return 0;
    }
    // `--usage a.json b.json`: the files after --usage may follow it without repeating the flag.
    if (parsed.positionals.length && !o.usage.length)
      throw new FlagError(`unexpected argument '${parsed.positionals[0]}': every setting is a flag (see --help)`);
    if (!o.base) throw new FlagError('diff needs --base <file|git ref>: the version to compare with');
    format = o.format;
    const base = sourceOf(o.base, o.specPath, io.cwd, '--base');
    const head = headOf(o.head, o.specPath, parsed.from.specPath === 'flag', io.cwd);
    const profiles = readProfiles([...o.usage, ...parsed.positionals], io.cwd);
    const changes = weighAll(diffVersions(versionOf(base.doc, base.name), versionOf(head.doc, head.name)), profiles);
    report = reportOf(changes, {
      base: base.name,
      head: head.name,
      ...(o.failOn ? { failOn: o.failOn as Severity } : {}),
      ...(profiles.length
        ? {
            usage: profiles.map((p) => ({
              consumer: p.consumer,
              requests: p.requests,
              ...(p.recordedBy ? { recordedBy: p.recordedBy } : {}),
            })),
          }
        : {}),
    });
  } catch (err) {
    if (err instanceof FlagError) {
      io.err(`contract diff: ${err.message}\n\n${DIFF_USAGE}`);
      return 2;
    }
    if (err instanceof DocumentError || err instanceof UsageProfileError) {
      io.err(`contract diff: ${err.message}`);
      return 2;
    }
    throw err;
  }
  io.out(format === 'json' ? renderJson(report) : format === 'markdown' ? renderMarkdown(report) : renderText(report));
  return report.failed ? 1 : 0;
}
