// Every failure under a named cause. One defect of a server shows up in many checks (a
// missing route fails every check of its operation, a crash on bad input fails every
// negative check and the hygiene scan, `=false` read as true fails the default check of
// every boolean), and a list of symptoms hides it. Each fingerprint below is something
// failures share that names a defect; a failure joins the first fingerprint it has, in
// the order below (a crash explains a wrong body on its answer, and a missing route every
// check of its operation, not the other way round).
// A failure with none of them joins the cause of another failure on the same request (a
// check and the hygiene scan that met one answer); the rest are grouped by family and
// what went wrong, so a cause may hold one failure, and no failure is left without one.
// The results need not come from a suite run: a proxy that judges live traffic hands its
// own (reports/outcome.ts `outcomeOf`).
import { PAGING_REPEATS } from '../../spec/judges/comparisons.ts';
import { LEVELS, type Provenance } from '../../spec/provenance.ts';
import type { CheckResult } from '../shared/recorder.ts';

export interface Cause {
  /** What is wrong, for people: `route missing: GET /metadata/versions answers 404 to every request`. */
  title: string;
  /** What to do about it, when the suite can tell. */
  hint?: string;
  /** The hardest promise among its failures: the worst it breaks. */
  level: Provenance;
  /** Its failures, the example first. */
  failures: CheckResult[];
}

/** What the run saw of every answer (shared/answer-log.ts): statuses per operation, media types overall. */
export interface Observed {
  answers: Record<string, Record<string, number>>;
  answerTypes: Record<string, number>;
}

export interface OperationInfo {
  operationId: string;
  method: string;
  path: string;
  /** Declares a 404 of its own (a ping of a server not indexed): all-404 may then be the data, not the route. */
  declares404: boolean;
  /** Needs credentials (a public one ignores a bad credential, so it says nothing about one). */
  isProtected: boolean;
}

interface Fingerprint {
  /**
   * What failures of one such cause share, as one value to group by; undefined when the failure has no cause of this
   * kind.
   */
  key(f: CheckResult): string | undefined;
  /** The cause of failures that share a key, told from their fields. */
  cause(failures: CheckResult[]): Omit<Cause, 'level' | 'failures'>;
}

const CREDENTIALS: Record<string, string> = {
  apiKey: 'API key',
  session: 'session cookie',
  forbidden: 'forbidden API key (CONTRACT_FORBIDDEN_API_KEY)',
};
const ENV: Record<string, string> = {
  apiKey: 'CONTRACT_API_KEY',
  session: 'CONTRACT_SESSION_COOKIE',
  forbidden: 'CONTRACT_FORBIDDEN_API_KEY',
};

/** The family a result belongs to (`auth`, `schema`, `Dredd`...), as the engine filed it. */
export const familyOf = (f: Pick<CheckResult, 'family' | 'operationId'>): string => f.family ?? f.operationId;

/** Up to three items, and how many more. */
function some(items: string[]): string {
  const distinct = [...new Set(items)];
  return distinct.length > 3
    ? `${distinct.slice(0, 3).join(', ')} and ${distinct.length - 3} more`
    : distinct.join(', ');
}

/** A title stays a line: what follows is in the example. */
const short = (text: string) => (text.length > 140 ? `${text.slice(0, 140)}…` : text);

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The route a failure's request went to, as the spec writes it (`GET /status/ping/{address}`): its fields. */
function routeOf(f: CheckResult): string {
  return f.route ? `${f.method ?? ''} ${f.route}`.trim() : f.method ? `${f.method} (${f.operationId})` : f.operationId;
}

function fingerprints(
  ops: OperationInfo[],
  observed: Observed | undefined,
  results: readonly CheckResult[],
): Fingerprint[] {
  const byId = new Map(ops.map((o) => [o.operationId, o]));
  // An invalid credential answered as if taken, where requests with no credential to take got the same answer
  // (a 200 of a listing that checks nothing, a 401 spelled 403): the status is the defect, not the credential.
  const failing = results.filter((r) => r.status === 'fail');
  const not401 = (f: CheckResult) => f.evidence?.expectedStatus === 401 && f.evidence.answer?.status !== 401;
  const untaken = new Set(
    failing.filter((f) => not401(f) && !f.evidence?.finding).map((f) => f.evidence?.answer?.status),
  );
  const sameAsNone = (f: CheckResult) =>
    not401(f) && Boolean(f.evidence?.finding) && untaken.has(f.evidence?.answer?.status);
  const routes = (failures: CheckResult[]) => some(failures.map((f) => routeOf(f)));
  /**
   * Operations every answer of which was 404 or 405 (a 5xx aside: a crash before routing proves no route): the route is
   * not there.
   */
  const routeless = new Set(
    Object.entries(observed?.answers ?? {})
      .filter(([id, statuses]) => {
        const answered = Object.keys(statuses).filter((s) => Number(s) < 500);
        return byId.has(id) && answered.length > 0 && answered.every((s) => s === '404' || s === '405');
      })
      .map(([id]) => id),
  );
  /**
   * The run's credentials that got 401 on every protected request whose answer rested on
   * them (a success, or the 403 of a valid credential; a 413 comes before anyone is asked).
   */
  const refused = new Set<string>();
  const restsOnCredential = (status: number | undefined) =>
    status !== undefined && ((status >= 200 && status < 300) || status === 403);
  for (const credential of Object.keys(CREDENTIALS)) {
    const uses = results.filter(
      (r) =>
        r.evidence?.credential === credential &&
        byId.get(r.operationId)?.isProtected &&
        r.evidence.answer &&
        restsOnCredential(r.evidence.expectedStatus),
    );
    if (uses.length && uses.every((r) => r.evidence!.answer!.status === 401)) refused.add(credential);
  }
  const jsonAnswers = observed?.answerTypes['application/json'] ?? 0;
  const allAnswers = Object.values(observed?.answerTypes ?? {}).reduce((a, b) => a + b, 0);
  /** Checks of a family that ran (passed or failed), for "n of m". */
  const ran = (family: string) => results.filter((r) => r.status !== 'skip' && familyOf(r) === family).length;
  const subjects = (failures: CheckResult[]) => [
    ...new Set(failures.map((f) => f.evidence?.subject).filter((s): s is string => Boolean(s))),
  ];
  return [
    {
      key: (f) => f.evidence?.crash,
      cause: (failures) => ({
        title: `server error: ${failures[0]!.evidence!.crash} (${routes(failures)})`,
        hint:
          'the same error on every one of these answers: one fault of the target, met through several checks; ' +
          'the example repeats it',
      }),
    },
    {
      key: (f) => (routeless.has(f.operationId) ? f.operationId : undefined),
      cause: (failures) => {
        const id = failures[0]!.operationId;
        const op = byId.get(id)!;
        const statuses = Object.entries(observed?.answers[id] ?? {});
        const routed = statuses.filter(([s]) => Number(s) < 500);
        const failed = statuses.filter(([s]) => Number(s) >= 500).reduce((n, [, c]) => n + c, 0);
        const count =
          `${routed.reduce((n, [, c]) => n + c, 0)} ` + `answers${failed ? `, and ${failed} server errors` : ''}`;
        const got = routed.map(([s]) => s).join(' or ');
        return op.declares404
          ? {
              title:
                `${op.method} ${op.path} answers ${got} to every request (${count}): the route is missing, or ` +
                `it finds nothing at all`,
              hint:
                `check that ${op.method} ${op.path} is routed on the target, and that it indexes the servers its ` +
                `search lists`,
            }
          : {
              title: `route missing: ${op.method} ${op.path} answers ${got} to every request (${count})`,
              hint: `the target does not serve ${op.method} ${op.path}; every check of ${id} fails with it`,
            };
      },
    },
    {
      key: (f) => {
        const p = f.evidence?.credential;
        return p && refused.has(p) && f.evidence?.answer?.status === 401 ? 'refused' : undefined;
      },
      cause: () => {
        const which = [...refused];
        return {
          title:
            `valid credentials refused: every request with the ` +
            `${which.map((p) => CREDENTIALS[p]).join(', the ')} got 401`,
          hint:
            `check that ${which.map((p) => ENV[p]).join(', ')} ${which.length > 1 ? 'are' : 'is'} valid on this ` +
            `target (not expired, revoked or from another environment); if so, the target refuses valid credentials`,
        };
      },
    },
    {
      key: (f) => f.evidence?.wrongType,
      cause: (failures) => ({
        title:
          `Content-Type is '${failures[0]!.evidence!.wrongType}' where the spec promises ` +
          `application/json${jsonAnswers === 0 && allAnswers ? ' (on every answer)' : ''}`,
        hint: 'every JSON answer must say Content-Type: application/json (a charset parameter is fine)',
      }),
    },
    {
      key: (f) =>
        f.evidence?.missingHeaders
          ? `${f.evidence.missingHeaders.every ? 'every' : 'some'}\u0000` +
            [...f.evidence.missingHeaders.names].sort().join(', ')
          : undefined,
      cause: (failures) => {
        const { names, every } = failures[0]!.evidence!.missingHeaders!;
        return {
          title:
            `response headers ${[...names].sort().join(', ')} missing from ` +
            `${every ? 'every answer' : 'some answers'} of ${plural(failures.length, 'operation')}`,
          hint: "the spec declares them on these statuses; clients (and the suite's pacing) rely on them",
        };
      },
    },
    {
      // What leaked and where, whichever judge met it (the schema's `not`, the suite's own secrets).
      key: (f) => f.evidence?.leak,
      cause: (failures) => ({
        title: failures[0]!.evidence!.leak!,
        hint:
          'the spec keeps a secret to the answer that creates it: an answer that carries it again hands it to ' +
          'whoever reads that answer',
      }),
    },
    {
      // Only the first schema error of a failure: the one it is listed under, as the field it is about, wherever it
      // sits (one field sent as text in the search's rows and in both pings is one defect).
      // A format broken in several fields is one defect too: every timestamp without its zone.
      key: (f) => {
        const error = f.evidence?.schemaErrors?.[0];
        if (!error) return undefined;
        return /must match format "[^"]+"$/.exec(error)?.[0] ?? fieldError(error);
      },
      cause: (failures) => {
        const where = [...new Set(failures.map((f) => f.evidence!.schemaErrors![0]!))];
        const also = where.length > 1 ? `; also ${some(where.slice(1))}` : '';
        return {
          title: `schema: ${where[0]} (the same error in ${plural(failures.length, 'check')}${also})`,
          hint: 'one field the target sends differently from what the spec describes',
        };
      },
    },
    {
      // An invalid credential taken is filed with the status when requests with none got the same (above).
      key: (f) => (sameAsNone(f) ? undefined : f.evidence?.finding),
      cause: (failures) => {
        const finding = failures[0]!.evidence!.finding;
        const families = [...new Set(failures.map(familyOf))];
        const names = subjects(failures);
        // One family: how many of its checks; across families: how many checks, and what they were about.
        // One family: how many of its checks; across families: how many checks, and what they were about.
        const of =
          families.length === 1
            ? ` (${failures.length} of the ${ran(families[0]!)} \`${families[0]}:\` ` +
              `checks${names.length ? `: ${some(names)}` : ''})`
            : ` (${plural(failures.length, 'check')}${names.length ? `: ${some(names)}` : ''})`;
        return { title: `${finding}${of}` };
      },
    },
    {
      // A status other than the one the spec gives, the same way on one route or across a family's checks.
      key: (f) => {
        const { expectedStatus, answer } = f.evidence ?? {};
        return expectedStatus !== undefined && answer && answer.status !== expectedStatus
          ? `${answer.status}\u0000${expectedStatus}`
          : undefined;
      },
      cause: (failures) => {
        const { expectedStatus, answer } = failures[0]!.evidence!;
        return {
          title:
            `answers ${answer!.status} where the spec says ${expectedStatus}: ${routes(failures)} ` +
            `(${plural(failures.length, 'check')})`,
        };
      },
    },
    {
      key: (f) => (f.evidence?.subject ? `${f.operationId}\u0000${f.evidence.subject}` : undefined),
      cause: (failures) => {
        const [f] = failures;
        const why = f!.findings?.[0]?.why ?? (f!.message ?? '').split(/; | \| /)[0]!;
        const count = failures.length > 1 ? ` (${plural(failures.length, 'check')})` : '';
        return { title: `${f!.operationId}: ${f!.evidence!.subject}: ${short(why)}${count}` };
      },
    },
  ];
}

/**
 * A schema error as the field it is about, wherever in a body it sits: `body.results.*.port
 * must be integer` and `body.server.port must be integer` are `port must be integer`;
 * `body.server must have property 'city'` is `must have property 'city'`.
 */
export function fieldError(error: string): string {
  const m = /^body(?:\.[^\s]*)?\s(.*)$/.exec(error);
  if (!m) return error;
  // A missing or unknown property names itself: where it was missed is its container, not it.
  if (/^(must have property|has unknown property) /.test(m[1]!)) return m[1]!;
  const path = error
    .slice(0, error.length - m[1]!.length)
    .trim()
    .split('.');
  const last = path.at(-1);
  return last && last !== 'body' && last !== '*' ? `${last} ${m[1]}` : m[1]!;
}

const hardest = (levels: Provenance[]): Provenance =>
  LEVELS[Math.min(...levels.map((l) => LEVELS.indexOf(l)))] ?? 'assumed';

/** The requests a failure rests on, as described. */
const requestsOf = (f: CheckResult): string[] => [...(f.request ? [f.request] : []), ...(f.evidence?.requests ?? [])];

/** The example of a cause: the first failure at its level that can be repeated with a curl line. */
function exampleFirst(failures: CheckResult[], level: Provenance): CheckResult[] {
  const example =
    failures.find((f) => f.provenance === level && f.repro) ??
    failures.find((f) => f.provenance === level) ??
    failures[0]!;
  return [example, ...failures.filter((f) => f !== example)];
}

/**
 * Every failure under a cause, worst level first; `results` is every result (passes too: a credential that worked once
 * is not refused).
 */
export function findCauses(
  results: readonly CheckResult[],
  ops: OperationInfo[],
  observed: Observed | undefined,
): Cause[] {
  let left = results.filter((r) => r.status === 'fail');
  const groups: { title: string; hint?: string; failures: CheckResult[] }[] = [];
  const claim = (fp: Pick<Fingerprint, 'key'>, cause: Fingerprint['cause']) => {
    const byKey = new Map<string, CheckResult[]>();
    for (const f of left) {
      const key = fp.key(f);
      if (key !== undefined) byKey.set(key, [...(byKey.get(key) ?? []), f]);
    }
    for (const failures of byKey.values()) groups.push({ ...cause(failures), failures });
    const taken = new Set([...byKey.values()].flat());
    left = left.filter((f) => !taken.has(f));
  };
  for (const fp of fingerprints(ops, observed, results)) claim(fp, fp.cause);
  // Two checks that failed on the same answer are one finding about it; paging that repeats rows, one with the order
  // that moved between the pages of that operation.
  const sorted = (f: CheckResult, o: CheckResult) =>
    f.evidence?.defect === PAGING_REPEATS && o.operationId === f.operationId && familyOf(o) === 'sort';
  for (const f of [...left]) {
    const mine = requestsOf(f);
    const group = groups.find((g) =>
      g.failures.some((o) => sorted(f, o) || requestsOf(o).some((r) => mine.includes(r))),
    );
    if (group) {
      group.failures.push(f);
      left = left.filter((x) => x !== f);
    }
  }
  // The rest: by what went wrong (a judge's defect, whichever family met it; else the family's check), so the
  // same failure on several operations, or met by a family's case and by the scan of every answer, is one cause.
  claim(
    {
      key: (f) =>
        f.evidence?.judge && f.evidence.defect
          ? `\u0000${f.evidence.judge}\u0000${f.evidence.defect}`
          : `${familyOf(f)}\u0000\u0000${f.check}`,
    },
    (failures) => {
      const f = failures[0]!;
      return failures.length === 1
        ? { title: `${f.operationId}: ${f.check}` }
        : { title: `${f.check} (${some(failures.map((x) => x.operationId))}: ${plural(failures.length, 'check')})` };
    },
  );
  const causes = groups.map((g) => {
    const level = hardest(g.failures.map((f) => f.provenance));
    return { ...g, level, failures: exampleFirst(g.failures, level) };
  });
  return causes.sort(
    (a, b) => LEVELS.indexOf(a.level) - LEVELS.indexOf(b.level) || b.failures.length - a.failures.length,
  );
}
