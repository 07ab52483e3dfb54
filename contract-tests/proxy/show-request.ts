// How the proxy shows the request behind a violation: as people read it (credentials
// masked) and as a curl line that repeats it against the upstream, the credentials it
// carried written as the suite's variables (never their values).
import { describeRequest, redact, redactKnown } from '../shared/mask.ts';
import { curlLine, nameVariable } from '../shared/repro.ts';
import { cookieValue } from '../../spec/judges/credentials.ts';
import type { Exchange } from '../../spec/judges/exchange.ts';

const KEY_STAND_IN = '__proxy_bearer_credential__';
const SESSION_STAND_IN = '__proxy_session_credential__';

/** The request headers an answer depends on, which a repro sends again (a browser's Origin, a preflight's asks too). */
const REPEATED = [
  'content-type',
  'prefer',
  'authorization',
  'cookie',
  'origin',
  'access-control-request-method',
  'access-control-request-headers',
] as const;

const SPELT: Record<(typeof REPEATED)[number], string> = {
  'content-type': 'Content-Type',
  prefer: 'Prefer',
  authorization: 'Authorization',
  cookie: 'Cookie',
  origin: 'Origin',
  'access-control-request-method': 'Access-Control-Request-Method',
  'access-control-request-headers': 'Access-Control-Request-Headers',
};

/** The variables a repro line reads the credentials from, the session's without its cookie name. */
export function nameStandIns(sessionCookie: string | undefined): void {
  nameVariable(KEY_STAND_IN, '${CONTRACT_API_KEY}');
  nameVariable(
    SESSION_STAND_IN,
    sessionCookie ? `\${CONTRACT_SESSION_COOKIE#${sessionCookie}=}` : '${CONTRACT_SESSION_COOKIE}',
  );
}

/**
 * The request as people read it (credentials masked) and as a shell repeats
 * it against the upstream (credentials as variables).
 */
export function showRequest(
  ex: Exchange,
  request: { upstreamUrl: string; body?: string },
  sessionCookie: string | undefined,
): { request: string; repro: string } {
  const h = ex.request.headers;
  const repro: Record<string, string> = {};
  const shownHeaders: Record<string, string> = {};
  for (const name of REPEATED) {
    const value = h[name];
    if (value === undefined) continue;
    if (name === 'authorization') {
      const [scheme, ...rest] = value.split(' ');
      repro.Authorization = rest.length ? `${scheme} ${KEY_STAND_IN}` : KEY_STAND_IN;
      shownHeaders.Authorization = value;
    } else if (name === 'cookie') {
      // Only the API's session cookie matters to the answer; other cookies are the browser's business.
      const session = cookieValue(value, sessionCookie);
      if (session !== undefined) {
        repro.Cookie = `${sessionCookie}=${SESSION_STAND_IN}`;
        shownHeaders.Cookie = `${sessionCookie}=${session}`;
      }
    } else {
      repro[SPELT[name]] = value;
      shownHeaders[SPELT[name]] = value;
    }
  }
  const body = request.body;
  return {
    request: redact(
      describeRequest({
        method: ex.request.method,
        url: ex.request.target,
        headers: shownHeaders,
        ...(body ? { body } : {}),
      }),
    ),
    // The credentials are variables already: only a known secret elsewhere in it (a body) is masked.
    repro: redactKnown(
      curlLine({ method: ex.request.method, url: request.upstreamUrl, headers: repro, ...(body ? { body } : {}) }),
    ),
  };
}
