// The diff's report and its three renderings, each a view of the same structured
// changes: text for a terminal, markdown for a pull request (and a job summary), JSON
// for a program (its `format` names the version of the shape).
import type { Change } from './change.ts';
import { atLeast, type Severity } from './rules.ts';

export const DIFF_FORMAT = 'server-listing-spec-diff/1';

export interface DiffReport {
  format: typeof DIFF_FORMAT;
  /** Where each version came from: a file, or `<ref>:<path>` read with git. */
  base: string;
  head: string;
  changes: Change[];
  counts: Record<Severity, number>;
  /** The usage profiles the changes were weighed by. */
  usage?: { consumer: string; requests: number; recordedBy?: string }[];
  /** `--fail-on`: the severity that fails the run, and whether a change met it. */
  failOn?: Severity;
  failed: boolean;
}

export function reportOf(
  changes: Change[],
  facts: { base: string; head: string; failOn?: Severity; usage?: DiffReport['usage'] },
): DiffReport {
  const counts: Record<Severity, number> = { breaking: 0, warning: 0, info: 0 };
  for (const c of changes) counts[c.severity]++;
  return {
    format: DIFF_FORMAT,
    base: facts.base,
    head: facts.head,
    changes,
    counts,
    ...(facts.usage ? { usage: facts.usage } : {}),
    ...(facts.failOn ? { failOn: facts.failOn } : {}),
    failed: Boolean(facts.failOn && changes.some((c) => atLeast(c.severity, facts.failOn!))),
  };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** `2 breaking, 1 warning, 3 info`, or `no changes`. */
export function countsLine(r: DiffReport): string {
  if (!r.changes.length) return 'no changes';
  return `${r.counts.breaking} breaking, ${plural(r.counts.warning, 'warning')}, ${r.counts.info} info`;
}

const BREAKS: Record<Change['breaks'], string> = {
  clients: 'breaks clients',
  implementations: 'breaks implementations',
  both: 'breaks clients and implementations',
  none: 'safe',
};

function verdict(r: DiffReport): string {
  if (!r.failOn) return '';
  return r.failed ? ` (FAILED: --fail-on ${r.failOn})` : ` (passed --fail-on ${r.failOn})`;
}

function usageLine(r: DiffReport): string | undefined {
  if (!r.usage) return undefined;
  const consumer = (u: (typeof r.usage)[number]) =>
    `${u.consumer} ${plural(u.requests, 'request')}${u.recordedBy ? ` (recorded by ${u.recordedBy})` : ''}`;
  return `Weighed by usage: ${r.usage.map(consumer).join(', ')}`;
}

export function renderText(r: DiffReport): string {
  const lines = [`Spec diff ${r.base} -> ${r.head}: ${countsLine(r)}${verdict(r)}`];
  const usage = usageLine(r);
  if (usage) lines.push(usage);
  for (const c of r.changes) {
    lines.push(
      '',
      `${c.severity.toUpperCase().padEnd(8)} ${c.rule} [${c.level}]${c.route ? ` ${c.route}` : ''}: ${c.where}`,
      `         ${c.message}`,
      `         ${BREAKS[c.breaks]}${c.usage ? `; ${c.usage.summary}` : ''}${c.why ? `; ${c.why}` : ''}`,
    );
  }
  return lines.join('\n');
}

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const ICON: Record<Severity, string> = { breaking: '❌', warning: '⚠️', info: 'ℹ️' };

export function renderMarkdown(r: DiffReport): string {
  const head = r.counts.breaking ? '❌' : r.counts.warning ? '⚠️' : '✅';
  const lines = [
    `## ${head} Spec diff: ${countsLine(r)}${verdict(r)}`,
    '',
    `\`${cell(r.base)}\` → \`${cell(r.head)}\``,
  ];
  const usage = usageLine(r);
  if (usage) lines.push('', usage);
  if (r.changes.length) {
    lines.push(
      '',
      '| | rule | level | where | what | whom it breaks |',
      '|---|---|---|---|---|---|',
      ...r.changes.map((c) => {
        const where = cell(`${c.route ? `${c.route}: ` : ''}${c.where}`);
        const whom = cell([BREAKS[c.breaks], c.usage?.summary, c.why].filter(Boolean).join('; '));
        const severity = `${ICON[c.severity]} ${c.severity}`;
        return `| ${severity} | \`${c.rule}\` | ${c.level} | ${where} | ${cell(c.message)} | ${whom} |`;
      }),
    );
  }
  return `${lines.join('\n')}\n`;
}

export function renderJson(r: DiffReport): string {
  return `${JSON.stringify(r, null, 2)}\n`;
}
