// `cors`: an answer to a request from another origin is held to x-cors as a browser reads
// it (the Fetch standard's CORS check and CORS-preflight fetch). An origin x-cors allows is
// granted: `Access-Control-Allow-Origin` echoes it (a browser compares byte for byte, and
// refuses `*` when credentials are included), with `Access-Control-Allow-Credentials: true`
// where x-cors allows credentials, `Vary: Origin` (the answer depends on it, so a cache
// must not hand it to another origin), and, except on a preflight, every header x-cors
// exposes in `Access-Control-Expose-Headers` (`*` exposes nothing with credentials). A
// preflight from it gets x-cors's status, every method of its path in
// `Access-Control-Allow-Methods`, x-cors's headers in `Access-Control-Allow-Headers` (`*`
// never covers `Authorization`) and the promised `Access-Control-Max-Age`. An origin the
// sender knows no deployment may grant is granted nothing. An origin x-cors does not list
// may still be a deployment's own web site (live traffic through the proxy): granted, it
// is held to the same rules; refused, nothing is said.
import type { CorsContract } from '../model.ts';
import { weakest, type Provenance } from '../provenance.ts';
import { type CrossOrigin, crossOrigin, listOf } from './cross-origin.ts';
import type { Exchange } from './exchange.ts';
import { type Finding, judge, type JudgeContext } from './judge.ts';
import { ALWAYS_ALLOWED, owedStatuses } from './owed-status.ts';

const NAME = 'cors';

/** The promises a finding can break, each with the words every failure of it shares. */
/** A header's value as a finding quotes it. */
const quoted = (value: string | undefined, absent = '(none)') => (value === undefined ? absent : `'${value}'`);

function finding(level: Provenance, header: string, why: string, defect: string, expected?: string): Finding {
  return {
    judge: NAME,
    level,
    why,
    ...(expected ? { expected } : {}),
    defect,
    subject: { header },
    // The same broken rule on every path and operation is one defect of the target's CORS layer.
    acrossSubjects: true,
  };
}

/** Whether a comma-separated header lists every name (case-insensitive); `*` counts only where `star` says so. */
function missingFrom(value: string | undefined, names: readonly string[], star: (name: string) => boolean): string[] {
  const listed = listOf(value);
  return names.filter((n) => !listed.includes(n.toLowerCase()) && !(listed.includes('*') && star(n)));
}

/** What an answer to a granted origin owes besides the grant: credentials, Vary, the exposed headers. */
function grantedRules(ex: Exchange, cors: CorsContract, co: CrossOrigin, preflight: boolean): Finding[] {
  const h = ex.answer.headers;
  const out: Finding[] = [];
  if (cors.credentials && h['access-control-allow-credentials'] !== 'true') {
    const got = h['access-control-allow-credentials'];
    out.push(
      finding(
        cors.provenance,
        'access-control-allow-credentials',
        `Origin ${co.origin} is granted without Access-Control-Allow-Credentials: true ` +
          `(got ${quoted(got, 'none')}): a page's credentialed call fails`,
        'Access-Control-Allow-Credentials: true missing where x-cors allows credentials',
        'Access-Control-Allow-Credentials: true',
      ),
    );
  }
  const vary = listOf(h.vary);
  if (!vary.includes('origin') && !vary.includes('*')) {
    out.push(
      finding(
        cors.origins.provenance,
        'vary',
        `Access-Control-Allow-Origin echoes ${co.origin} but Vary is ${quoted(h.vary, 'absent')}: ` +
          'a cache may hand this answer to another origin',
        'Vary: Origin missing on answers that echo the Origin',
        'Vary: Origin',
      ),
    );
  }
  if (!preflight) {
    // With credentials a browser reads `*` as a header name, not as every header.
    const missing = missingFrom(h['access-control-expose-headers'], cors.exposeHeaders.names, () => !cors.credentials);
    if (missing.length)
      out.push(
        finding(
          cors.exposeHeaders.provenance,
          'access-control-expose-headers',
          `Access-Control-Expose-Headers ${quoted(h['access-control-expose-headers'], 'is absent')}: ` +
            `a page cannot read ${missing.join(', ')}`,
          'Access-Control-Expose-Headers leaves out headers x-cors exposes',
          `Access-Control-Expose-Headers: ${cors.exposeHeaders.names.join(', ')}`,
        ),
      );
  }
  return out;
}

/** What a preflight's answer owes: the methods of its path, x-cors's headers, its max age. */
function preflightRules(ex: Exchange, cors: CorsContract, co: CrossOrigin): Finding[] {
  const h = ex.answer.headers;
  const { preflight } = cors;
  const out: Finding[] = [];
  const methods = listOf(h['access-control-allow-methods']).map((m) => m.toUpperCase());
  // Every method of the path, the one asked for among them; `*` covers them only without credentials.
  const leftOut = co.methods.filter((m) => !methods.includes(m) && !(methods.includes('*') && !cors.credentials));
  if (leftOut.length)
    out.push(
      finding(
        preflight.provenance,
        'access-control-allow-methods',
        `a preflight of ${co.template} gets Access-Control-Allow-Methods ` +
          `${quoted(h['access-control-allow-methods'])}, which leaves out ${leftOut.join(', ')}`,
        'Access-Control-Allow-Methods of a preflight leaves out methods its path declares',
        `Access-Control-Allow-Methods listing ${co.methods.join(', ')}`,
      ),
    );
  // `*` never covers Authorization, and covers nothing when credentials are included.
  const headersLeftOut = missingFrom(
    h['access-control-allow-headers'],
    preflight.allowHeaders,
    (n) => !cors.credentials && n.toLowerCase() !== 'authorization',
  );
  if (headersLeftOut.length)
    out.push(
      finding(
        preflight.provenance,
        'access-control-allow-headers',
        `a preflight of ${co.template} gets Access-Control-Allow-Headers ` +
          `${quoted(h['access-control-allow-headers'])}, which leaves out ${headersLeftOut.join(', ')}`,
        'Access-Control-Allow-Headers of a preflight leaves out headers x-cors allows',
        `Access-Control-Allow-Headers covering ${preflight.allowHeaders.join(', ')}`,
      ),
    );
  const maxAge = h['access-control-max-age'];
  if (preflight.maxAgeSeconds !== undefined && maxAge?.trim() !== String(preflight.maxAgeSeconds))
    out.push(
      finding(
        preflight.provenance,
        'access-control-max-age',
        `a preflight of ${co.template} gets Access-Control-Max-Age ${quoted(maxAge)}, not ${preflight.maxAgeSeconds}`,
        'Access-Control-Max-Age of a preflight is not the one x-cors promises',
        `Access-Control-Max-Age: ${preflight.maxAgeSeconds}`,
      ),
    );
  return out;
}

/** The preflight status x-cors owes this request, when it owes one. */
function owedPreflight(ex: Exchange, ctx: JudgeContext) {
  return owedStatuses(ex, ctx).find((o) => o.rule === NAME);
}

function judgeCors(ex: Exchange, ctx: JudgeContext): Finding[] {
  const co = crossOrigin(ex, ctx)!;
  const { cors } = ctx.model;
  const h = ex.answer.headers;
  const granted = h['access-control-allow-origin'];
  // A server error is server-error's, and an answer chosen for the request (the mock's, to a
  // Host it refuses before anything else) none of the CORS layer's: their headers say nothing of it.
  if (ex.answer.status >= 500 || ex.known?.steered) return [];
  if (granted?.trim() === '*') {
    if (cors.credentials)
      return [
        finding(
          cors.provenance,
          'access-control-allow-origin',
          `Origin ${co.origin} got Access-Control-Allow-Origin: *, ` +
            "which a browser refuses on a call with credentials: 'include'",
          'Access-Control-Allow-Origin: * where x-cors allows credentials: browsers refuse every credentialed call',
          co.standing === 'allowed' ? `Access-Control-Allow-Origin: ${co.origin}` : 'no Access-Control-Allow-Origin',
        ),
      ];
    if (co.standing !== 'foreign') return [];
  }
  const echoes = granted === co.origin || granted?.trim() === '*';
  if (co.standing === 'foreign') {
    if (!echoes) return [];
    return [
      finding(
        cors.origins.provenance,
        'access-control-allow-origin',
        `Origin ${co.origin}, which no deployment may allow, got Access-Control-Allow-Origin: ${granted}`,
        'an origin x-cors does not allow is granted',
        'no Access-Control-Allow-Origin',
      ),
    ];
  }
  if (!echoes) {
    if (co.standing !== 'allowed') return [];
    // Not granted, every other rule is moot: the browser hides the answer.
    return [
      finding(
        cors.origins.provenance,
        'access-control-allow-origin',
        `Origin ${co.origin}, which x-cors allows, got Access-Control-Allow-Origin ${quoted(granted)}: ` +
          'the browser hides the answer',
        'an allowed origin is not granted: Access-Control-Allow-Origin does not echo it',
        `Access-Control-Allow-Origin: ${co.origin}`,
      ),
    ];
  }
  const out = [...grantedRules(ex, cors, co, co.preflight !== undefined)];
  // A preflight refused by a rate limit is the limit's; a server's own rules for it need an answer to it.
  if (co.preflight && co.template && !ALWAYS_ALLOWED.has(ex.answer.status)) {
    const owed = owedPreflight(ex, ctx);
    if (owed && ex.answer.status !== owed.status)
      out.push({
        ...finding(
          owed.level,
          'status',
          `status ${ex.answer.status}, expected ${owed.status}: ${owed.because}`,
          `a preflight answers ${ex.answer.status} where x-cors says ${owed.status}`,
          `${owed.status}`,
        ),
        evidence: { expectedStatus: owed.status },
      });
    out.push(...preflightRules(ex, cors, co));
  }
  return out;
}

/** How firm the promises judged on this exchange are: an allowed or a foreign origin's rest on x-cors's origins. */
function levelOf(ex: Exchange, ctx: JudgeContext): Provenance {
  const co = crossOrigin(ex, ctx)!;
  const { cors } = ctx.model;
  if (co.standing === 'other') return cors.provenance;
  const part = co.preflight ? cors.preflight.provenance : cors.exposeHeaders.provenance;
  return weakest(cors.provenance, cors.origins.provenance, co.standing === 'allowed' ? part : undefined);
}

export const cors = judge({
  name: NAME,
  promise:
    'an answer to another origin follows x-cors: an allowed origin echoed with credentials, Vary: Origin and the ' +
    'exposed headers, its preflight allowing the methods and headers; no other origin granted',
  applies: (ex, ctx) => crossOrigin(ex, ctx) !== undefined,
  level: levelOf,
  judge: judgeCors,
});
