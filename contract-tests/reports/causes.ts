// Failures that share a cause become one finding. One defect of a server shows up in
// many checks (a missing route fails every check of its operation; a header family
// left out fails the header check of every operation), and a list of symptoms hides
// it. Each fingerprint below is something the failures share that names the defect;
// a failure joins the first fingerprint it matches, in the order below (a missing
// route explains a wrong body on its answers, not the other way round). Failures that
// share nothing stay as themselves.
import { LEVELS, type Provenance } from '../../spec/provenance.ts';
import type { CheckResult } from '../kit/recorder.ts';

export interface Cause {
  /** What is wrong, for people: `route missing: GET /metadata/versions answers 404 to every request`. */
  title: string;
  /** What to do about it, when the suite can tell. */
  hint?: string;
  /** The hardest promise among its failures: the worst it breaks. */
  level: Provenance;
  failures: CheckResult[];
}

/** What the run saw of every answer (run/answer-log.ts): statuses per operation, media types overall. */
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
  /** The key failures are grouped by, or undefined when the failure does not have this kind of cause. */
  key(f: CheckResult): string | undefined;
  cause(key: string, failures: CheckResult[]): Omit<Cause, 'level' | 'failures'>;
}

const CREDENTIALS: Record<string, string> = { apiKey: 'API key', session: 'session cookie', forbidden: 'forbidden API key (CONTRACT_FORBIDDEN_API_KEY)' };
const ENV: Record<string, string> = { apiKey: 'CONTRACT_API_KEY', session: 'CONTRACT_SESSION_COOKIE', forbidden: 'CONTRACT_FORBIDDEN_API_KEY' };

function fingerprints(ops: OperationInfo[], observed: Observed | undefined, results: CheckResult[]): Fingerprint[] {
  const byId = new Map(ops.map((o) => [o.operationId, o]));
  /** Operations every answer of which was 404 or 405: the route is not there. */
  const routeless = new Set(
    Object.entries(observed?.answers ?? {})
      .filter(([id, statuses]) => byId.has(id) && Object.keys(statuses).length > 0 && Object.keys(statuses).every((s) => s === '404' || s === '405'))
      .map(([id]) => id),
  );
  /**
   * The run's credentials that got 401 on every protected request whose answer rested on
   * them (a success, or the 403 of a valid credential; a 413 comes before anyone is asked).
   */
  const refused = new Set<string>();
  const restsOnCredential = (status: number | undefined) => status !== undefined && ((status >= 200 && status < 300) || status === 403);
  for (const credential of Object.keys(CREDENTIALS)) {
    const uses = results.filter((r) => r.evidence?.credential === credential && byId.get(r.operationId)?.isProtected && r.evidence.answer && restsOnCredential(r.evidence.expectedStatus));
    if (uses.length && uses.every((r) => r.evidence!.answer!.status === 401)) refused.add(credential);
  }
  const jsonAnswers = observed?.answerTypes['application/json'] ?? 0;
  const allAnswers = Object.values(observed?.answerTypes ?? {}).reduce((a, b) => a + b, 0);
  return [
    {
      key: (f) => (routeless.has(f.operationId) ? f.operationId : undefined),
      cause: (id) => {
        const op = byId.get(id)!;
        const statuses = observed?.answers[id] ?? {};
        const count = Object.values(statuses).reduce((a, b) => a + b, 0);
        const got = Object.keys(statuses).join(' or ');
        return op.declares404
          ? { title: `${op.method} ${op.path} answers ${got} to every request (${count} answers): the route is missing, or it finds nothing at all`, hint: `check that ${op.method} ${op.path} is routed on the target, and that it indexes the servers its search lists` }
          : { title: `route missing: ${op.method} ${op.path} answers ${got} to every request (${count} answers)`, hint: `the target does not serve ${op.method} ${op.path}; every check of ${id} fails with it` };
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
          title: `valid credentials refused: every request with the ${which.map((p) => CREDENTIALS[p]).join(', the ')} got 401`,
          hint: `check that ${which.map((p) => ENV[p]).join(', ')} ${which.length > 1 ? 'are' : 'is'} valid on this target (not expired, revoked or from another environment); if so, the target refuses valid credentials`,
        };
      },
    },
    {
      key: (f) => f.evidence?.wrongType,
      cause: (type) => ({
        title: `Content-Type is '${type}' where the spec promises application/json${jsonAnswers === 0 && allAnswers ? ' (on every answer)' : ''}`,
        hint: 'every JSON answer must say Content-Type: application/json (a charset parameter is fine)',
      }),
    },
    {
      key: (f) => (f.evidence?.missingHeaders ? `${f.evidence.missingHeaders.every ? 'every' : 'some'}\u0000${[...f.evidence.missingHeaders.names].sort().join(', ')}` : undefined),
      cause: (key, failures) => {
        const [every, names] = key.split('\u0000');
        return { title: `response headers ${names} missing from ${every === 'every' ? 'every answer' : 'some answers'} of ${failures.length} operations`, hint: 'the spec declares them on these statuses; clients (and the suite\'s pacing) rely on them' };
      },
    },
    {
      // Only the first schema error of a failure: the one it is listed under.
      key: (f) => f.evidence?.schemaErrors?.[0],
      cause: (error, failures) => ({ title: `schema: ${error} (the same error in ${failures.length} checks)`, hint: 'one field the target sends differently from what the spec describes' }),
    },
  ];
}

const hardest = (levels: Provenance[]): Provenance => LEVELS[Math.min(...levels.map((l) => LEVELS.indexOf(l)))] ?? 'assumed';

/** Groups failures by cause; `results` is every result of the run (passes too: a credential that worked once is not refused). */
export function findCauses(results: CheckResult[], ops: OperationInfo[], observed: Observed | undefined): { causes: Cause[]; single: CheckResult[] } {
  let left = results.filter((r) => r.status === 'fail');
  const causes: Cause[] = [];
  for (const fp of fingerprints(ops, observed, results)) {
    const groups = new Map<string, CheckResult[]>();
    for (const f of left) {
      const key = fp.key(f);
      if (key !== undefined) groups.set(key, [...(groups.get(key) ?? []), f]);
    }
    for (const [key, failures] of groups) {
      if (failures.length < 2) continue;
      causes.push({ ...fp.cause(key, failures), level: hardest(failures.map((f) => f.provenance)), failures });
      left = left.filter((f) => !failures.includes(f));
    }
  }
  causes.sort((a, b) => LEVELS.indexOf(a.level) - LEVELS.indexOf(b.level) || b.failures.length - a.failures.length);
  return { causes, single: left };
}
