// `cors:` a browser app on another origin, as the spec's x-cors promises it. The family
// provokes and the `cors` judge decides (spec/judges/cors.ts): a preflight of every
// operation from an origin x-cors allows, asking for its method and the headers a page
// sends with it; a plain GET and a call with the session cookie from that origin; and a
// GET from an origin no deployment may allow, which must be granted nothing.
import { exampleOrigin } from '../../spec/cors-origins.ts';
import type { Operation, SpecModel } from '../../spec/model.ts';
import { weakest } from '../../spec/provenance.ts';
import type { CheckResult } from '../shared/recorder.ts';
import { pathWith, successPath } from './request-paths.ts';
import { skip } from './skip.ts';
import { family, type GivenFor } from './run-parts.ts';

const NEEDS = ['spec', 'scope', 'judging', 'credentials', 'http'] as const;
type Run = GivenFor<typeof NEEDS>;

/** An origin no deployment may grant: a `.invalid` name is never anyone's (RFC 2606). */
export const FOREIGN_ORIGIN = 'https://not-allowed.invalid';

const ABOUT = ['cors'];

/** The origin the family calls from: the first x-cors allows, as a page would have it. */
export function pageOrigin(model: SpecModel): string {
  return exampleOrigin(model.cors.origins.allowed[0]!);
}

/**
 * The headers a page sends with the operation that make its browser ask first: a key
 * (clients send theirs everywhere: rate limits are per account), a JSON body's type.
 */
function askedHeaders(model: SpecModel, op: Operation): string {
  const bearer = [...model.schemes.values()].some((s) => s.kind === 'bearer');
  return [...(bearer ? ['authorization'] : []), ...(op.requestBody ? ['content-type'] : [])].join(',');
}

async function preflight(op: Operation, run: Run): Promise<CheckResult[]> {
  const { cors } = run.spec;
  const level = weakest(op.provenance, cors.provenance, cors.origins.provenance, cors.preflight.provenance);
  if (!run.scope.wants(level)) return [];
  const asked = askedHeaders(run.spec, op);
  const headers = {
    Origin: pageOrigin(run.spec),
    'Access-Control-Request-Method': op.method,
    ...(asked ? { 'Access-Control-Request-Headers': asked } : {}),
  };
  const exchange = await run.http.send({ method: 'OPTIONS', url: run.http.url(pathWith(op)), headers });
  const asks = `a preflight of ${op.method} ${op.path} from an allowed origin`;
  const check = `cors: ${asks} -> ${cors.preflight.status}, allowing it`;
  return [run.judging.case({ op, check, level, about: ABOUT }, exchange)];
}

/** The first selected operation the predicate picks, in the spec's order: a call made once a run is filed under it. */
function firstSelected(run: Run, pick: (o: Operation) => boolean): Operation | undefined {
  return run.spec.operations.find((o) => pick(o) && run.scope.selected(o));
}

/** A plain GET from the page's origin, and one from an origin no deployment may allow. */
async function plainCalls(op: Operation, run: Run): Promise<CheckResult[]> {
  const { cors } = run.spec;
  const out: CheckResult[] = [];
  const url = run.http.url(successPath(op, undefined));
  // What `*` breaks (credentials) is as firm as x-cors itself; the rest rests on the origins it lists too.
  const level = weakest(op.provenance, cors.provenance);
  if (run.scope.wants(level)) {
    const exchange = await run.http.send({ method: 'GET', url, headers: { Origin: pageOrigin(run.spec) } });
    const check =
      'cors: GET from an allowed origin: the origin echoed with credentials, Vary: Origin, ' +
      'the rate-limit headers exposed';
    out.push(run.judging.case({ op, check, level, about: ABOUT }, exchange));
  }
  const foreignLevel = weakest(op.provenance, cors.provenance, cors.origins.provenance);
  if (run.scope.wants(foreignLevel)) {
    const exchange = await run.http.send({ method: 'GET', url, headers: { Origin: FOREIGN_ORIGIN } });
    const check = 'cors: GET from an origin no deployment allows: granted nothing';
    out.push(
      run.judging.case({ op, check, level: foreignLevel, about: ABOUT, known: { foreignOrigin: true } }, exchange),
    );
  }
  return out;
}

/** A call with the session cookie, as a page's `fetch(url, { credentials: 'include' })` sends it. */
async function credentialedCall(op: Operation, run: Run): Promise<CheckResult[]> {
  const { cors } = run.spec;
  const level = weakest(op.provenance, cors.provenance, cors.origins.provenance);
  const check = 'cors: a call with the session cookie from an allowed origin: granted as a credentialed call needs';
  const session = op.allowedSchemes.some((s) => run.spec.schemes.get(s)?.kind === 'cookie')
    ? run.credentials.headers('session')
    : undefined;
  if (!session) return skip(run.scope, { op, check, level, reason: 'no CONTRACT_SESSION_COOKIE' });
  if (!run.scope.wants(level)) return [];
  const headers = { Origin: pageOrigin(run.spec), ...session };
  const exchange = await run.http.send({ method: 'GET', url: run.http.url(successPath(op, undefined)), headers });
  return [run.judging.case({ op, check, level, about: ABOUT }, exchange)];
}

async function corsChecks(op: Operation, run: Run): Promise<CheckResult[]> {
  const out = await preflight(op, run);
  const plain = (o: Operation) => o.method === 'GET' && o.isPublic && !o.path.includes('{');
  if (firstSelected(run, plain) === op) out.push(...(await plainCalls(op, run)));
  const credentialed = (o: Operation) => o.method === 'GET' && !o.isPublic && !o.path.includes('{');
  if (firstSelected(run, credentialed) === op) out.push(...(await credentialedCall(op, run)));
  return out;
}

export const corsFamily = family({ name: 'cors', needs: NEEDS, perOperation: corsChecks });
