// A change weighed by what consumers were seen to use (usage profiles, spec/usage-profile.ts):
// how many recorded requests of whom it would meet. A change that breaks clients but that
// no recorded request meets is reported as a warning, and says so; one that some do keeps
// its severity and names them: "breaks 312 recorded requests of `web` (findServers with
// `country`)". The profiles only ever weigh a change down from breaking, never up.
import type { OperationUsage, UsageProfile, ValueUsage } from '../../spec/usage-profile.ts';
import type { Change, Touch } from './change.ts';

/** Requests of one operation's usage that a touch meets; `upTo` when only a bound is known. */
function countOf(op: OperationUsage | undefined, t: Touch): { n: number; upTo: boolean } {
  if (!op) return { n: 0, upTo: false };
  let n = op.requests;
  let upTo = false;
  const part: ValueUsage | undefined = t.parameter
    ? op.parameters[t.parameter]
    : t.field
      ? op.body[t.field]
      : undefined;
  if (t.parameter || t.field) {
    if (t.absent) n = op.requests - (part?.requests ?? 0);
    else if (!part) n = 0;
    else if (t.value !== undefined) {
      const key = Object.keys(part.values ?? {}).find((k) => k.toLowerCase() === t.value!.toLowerCase());
      n = key ? part.values![key]! : 0;
    } else if (t.above !== undefined || t.below !== undefined) {
      // A profile keeps the smallest and largest number sent, not each: the count is the most it can be.
      const nums = part.numbers;
      const beyond =
        nums && ((t.above !== undefined && nums.max > t.above) || (t.below !== undefined && nums.min < t.below));
      n = beyond ? (part.kinds.number ?? 0) : 0;
      upTo = Boolean(beyond);
    } else n = part.requests;
  }
  if (t.credential !== undefined) n = Math.min(n, op.credentials[t.credential] ?? 0);
  if (t.status !== undefined) n = Math.min(n, op.statuses[String(t.status)] ?? 0);
  return {
    n,
    upTo: upTo || ((t.credential !== undefined || t.status !== undefined) && (t.parameter ?? t.field) !== undefined),
  };
}

/** `findServers with \`country\``: what of an operation a touch is about. */
export function touchWords(t: Touch): string {
  const thing = t.parameter ?? t.field;
  const parts = [
    thing ? `${t.absent ? 'without' : 'with'} \`${thing}\`${t.value !== undefined ? `=${t.value}` : ''}` : '',
    t.above !== undefined ? `above ${t.above}` : t.below !== undefined ? `below ${t.below}` : '',
    t.credential !== undefined
      ? t.credential === 'none'
        ? 'without credentials'
        : `with a ${t.credential} credential`
      : '',
    t.status !== undefined ? `answered ${t.status}` : '',
  ].filter(Boolean);
  return [t.operationId, ...parts].join(' ');
}

const plural = (n: number, word: string) => `${n} recorded ${word}${n === 1 ? '' : 's'}`;

/** The change with its usage, and its severity lowered when it breaks clients no recorded request is. */
export function weigh(change: Change, profiles: readonly UsageProfile[]): Change {
  if (!change.touches.length) {
    return {
      ...change,
      usage: { requests: {}, summary: 'recorded usage cannot tell (no recorded request shows this part)' },
    };
  }
  const requests: Record<string, number> = {};
  const words: string[] = [];
  for (const p of profiles) {
    let total = 0;
    let upTo = false;
    const met: string[] = [];
    for (const t of change.touches) {
      const c = countOf(p.operations[t.operationId], t);
      if (c.n > 0) met.push(touchWords(t));
      total += c.n;
      upTo ||= c.upTo && c.n > 0;
    }
    if (total === 0) continue;
    requests[p.consumer] = (requests[p.consumer] ?? 0) + total;
    const shown = met.length > 3 ? `${met.slice(0, 3).join('; ')} and ${met.length - 3} more` : met.join('; ');
    words.push(`${upTo ? 'up to ' : ''}${plural(total, 'request')} of \`${p.consumer}\` (${shown})`);
  }
  const verb = change.breaks === 'none' ? 'meets' : change.breaks === 'implementations' ? 'meets' : 'breaks';
  if (words.length) return { ...change, usage: { requests, summary: `${verb} ${words.join(', ')}` } };
  const summary =
    `no recorded consumer uses it (` +
    `${profiles.map((p) => `${plural(p.requests, 'request')} of \`${p.consumer}\``).join(', ')})`;
  if (change.severity !== 'breaking') return { ...change, usage: { requests, summary } };
  return {
    ...change,
    severity: 'warning',
    usage: { requests, summary },
    why: 'so a warning, not breaking',
  };
}

export function weighAll(changes: readonly Change[], profiles: readonly UsageProfile[]): Change[] {
  return profiles.length ? changes.map((c) => weigh(c, profiles)) : [...changes];
}
