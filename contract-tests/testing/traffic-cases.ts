// Requests a browser session could send, each showing one defect of the reference server
// in a single exchange, and the judge that must name it. The proxy's tests send them in
// process (proxy/judge-traffic.test.ts) and through a real proxy (e2e/proxy.test.ts);
// against a correct server (and the mock) none of them may be a violation. Test support:
// no production module imports it.
import { loadFixtures } from '../../fixtures/load.ts';
import type { Defect } from '../reference-server/defects.ts';
import type { Provenance } from '../../spec/provenance.ts';

export interface TrafficCase {
  method: string;
  /** Relative to the base URL. */
  path: string;
  /** Which fixture credential it carries, if any. */
  credential?: 'valid-key' | 'valid-session' | 'unknown-key';
  body?: unknown;
  /** The page's origin, as a browser sends it on a call from another origin. */
  origin?: string;
  /** A CORS preflight's Access-Control-Request-Method and -Headers. */
  preflight?: { method: string; headers?: string };
}

/** A page on an origin x-cors allows. */
const PAGE = 'http://localhost:5173';

export interface Seen {
  operation: string;
  /** The registry's judge that names it. */
  judge: string;
  why: RegExp;
  level: Provenance;
}

/** The defects one exchange shows, the request that shows each, and the violation it must be named as. */
export const SHOWN: Partial<Record<Defect, { request: TrafficCase; seen: Seen }>> = {
  'auth-not-enforced': {
    request: { method: 'GET', path: '/user/apikeys' },
    seen: {
      operation: 'listApiKeys',
      judge: 'auth',
      why: /status 200, expected 401: it carries no credentials/,
      level: 'assumed',
    },
  },
  'wrong-401-message': {
    request: { method: 'GET', path: '/user/apikeys', credential: 'unknown-key' },
    seen: { operation: 'listApiKeys', judge: 'schema', why: /body\.message must be one of/, level: 'assumed' },
  },
  'missing-field': {
    request: { method: 'GET', path: '/servers/find?limit=3' },
    seen: { operation: 'findServers', judge: 'schema', why: /must have property 'port'/, level: 'observed' },
  },
  'wrong-type': {
    request: { method: 'GET', path: '/servers/find?limit=3' },
    seen: { operation: 'findServers', judge: 'schema', why: /port must be integer/, level: 'observed' },
  },
  'limit-ignored': {
    request: { method: 'GET', path: '/servers/find?limit=3' },
    seen: {
      operation: 'findServers',
      judge: 'page',
      why: /^results\.length is \d+, more than limit=3/,
      level: 'observed',
    },
  },
  'secret-in-list': {
    request: { method: 'GET', path: '/user/apikeys', credential: 'valid-key' },
    seen: {
      operation: 'listApiKeys',
      judge: 'schema',
      why: /body\.keys\.\d+\.secret must not be present/,
      level: 'assumed',
    },
  },
  'wrong-status': {
    request: { method: 'POST', path: '/user/apikeys', credential: 'valid-session', body: { name: 'proxy-test' } },
    seen: {
      operation: 'createApiKey',
      judge: 'declared-status',
      why: /createApiKey does not declare 200/,
      level: 'assumed',
    },
  },
  'nulls-past-page-one': {
    request: { method: 'GET', path: '/servers/find?limit=200&page=2&noFilter=true&maxAge=3650' },
    seen: { operation: 'findServers', judge: 'schema', why: /players_online must be integer/, level: 'observed' },
  },
  'false-as-true': {
    request: { method: 'GET', path: '/servers/find?limit=5&favicon=false' },
    seen: {
      operation: 'findServers',
      judge: 'switches',
      why: /rows carry 'favicon' though favicon=false/,
      level: 'observed',
    },
  },
  'wrong-default-sort': {
    request: { method: 'GET', path: '/servers/find?limit=20' },
    seen: {
      operation: 'findServers',
      judge: 'order',
      why: /out of order for the default sort \(updated\): last_ping/,
      level: 'observed',
    },
  },
  'ignored-filter': {
    request: { method: 'GET', path: '/servers/find?limit=20&org=hetzner' },
    seen: {
      operation: 'findServers',
      judge: 'filters',
      why: /rows break it \(org=hetzner: every row must have asn_name containing 'hetzner'/,
      level: 'observed',
    },
  },
  'sql-500': {
    request: { method: 'GET', path: '/servers/find?limit=abc' },
    seen: {
      operation: 'findServers',
      judge: 'server-error',
      why: /^status 500: the server failed: .*SQL syntax/,
      level: 'interface',
    },
  },
  'html-404': {
    request: { method: 'GET', path: '/no-such-page' },
    seen: { operation: '(no operation)', judge: 'json', why: /404 body is not JSON/, level: 'assumed' },
  },
  '404-wrong-method': {
    request: { method: 'PUT', path: '/servers/find' },
    seen: {
      operation: '(no operation)',
      judge: 'routing',
      why: /status 404, expected 405: \/servers\/find declares only GET/,
      level: 'assumed',
    },
  },
  'out-of-range-accepted': {
    request: { method: 'GET', path: '/servers/find?limit=501' },
    seen: {
      operation: 'findServers',
      judge: 'refused-values',
      why: /status 200, expected 400: the spec refuses limit=501/,
      level: 'interface',
    },
  },
  'bare-error-body': {
    request: { method: 'GET', path: '/servers/find?limit=0' },
    seen: {
      operation: 'findServers',
      judge: 'schema',
      why: /must have property 'success'/,
      level: 'interface',
    },
  },
  'missing-route': {
    request: { method: 'GET', path: '/metadata/versions?limit=5' },
    seen: {
      operation: 'listVersions',
      judge: 'declared-status',
      why: /status 404, which GET \/metadata\/versions does not declare/,
      level: 'observed',
    },
  },
  'no-rate-limit-headers': {
    request: { method: 'GET', path: '/metadata/regions' },
    seen: {
      operation: 'listRegions',
      judge: 'headers',
      why: /X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset missing/,
      level: 'observed',
    },
  },
  'text-plain-json': {
    request: { method: 'GET', path: '/metadata/countries' },
    seen: {
      operation: 'listCountries',
      judge: 'json',
      why: /Content-Type is 'text\/plain/,
      level: 'observed',
    },
  },
  'repeated-param-500': {
    request: { method: 'GET', path: '/servers/find?order=desc&order=' },
    seen: {
      operation: 'findServers',
      judge: 'server-error',
      why: /^status 500: the server failed: .*ER_OPERAND_COLUMNS/,
      level: 'interface',
    },
  },
  'utf8mb4-500': {
    request: { method: 'GET', path: `/servers/find?motd=${encodeURIComponent('\u{1F600}')}` },
    seen: {
      operation: 'findServers',
      judge: 'server-error',
      why: /^status 500: the server failed: .*ER_TRUNCATED_WRONG_VALUE/,
      level: 'interface',
    },
  },
  'foreign-param-500': {
    request: { method: 'GET', path: '/metadata/countries?sort=users' },
    seen: { operation: 'listCountries', judge: 'server-error', why: /^status 500: /, level: 'observed' },
  },
  'cors-wildcard-with-credentials': {
    request: { method: 'GET', path: '/user/apikeys', credential: 'valid-session', origin: PAGE },
    seen: {
      operation: 'listApiKeys',
      judge: 'cors',
      why: /got Access-Control-Allow-Origin: \*, which a browser refuses/,
      level: 'interface',
    },
  },
  'cors-no-expose-headers': {
    request: { method: 'GET', path: '/metadata/regions', origin: PAGE },
    seen: {
      operation: 'listRegions',
      judge: 'cors',
      why: /Access-Control-Expose-Headers is absent: a page cannot read X-RateLimit-Limit/,
      level: 'assumed',
    },
  },
  'cors-preflight-missing-method': {
    request: {
      method: 'OPTIONS',
      path: '/user/apikeys/key_0123456789ab',
      origin: PAGE,
      preflight: { method: 'DELETE', headers: 'authorization' },
    },
    seen: { operation: '(no operation)', judge: 'cors', why: /which leaves out DELETE/, level: 'assumed' },
  },
};

/**
 * What one exchange cannot show, and so the proxy does not name: each needs two answers
 * compared (a count across pages or limits, the same request spelt two ways), rows it
 * never saw (`motd` blind through colour codes), or knowing a credential is valid.
 */
export const NOT_SHOWN: Defect[] = [
  'refuses-credentials',
  'encoded-colon-404',
  'motd-raw',
  'total-counts-hidden',
  'total-per-page',
  'limit-dependent-count',
  // Live traffic cannot tell an origin no deployment may allow from a deployment's own web site.
  'cors-any-origin',
];

/**
 * More of what a browser session sends: every operation, filters, sorts, pages, pings, errors
 * it may provoke. None may be a violation against a correct server.
 */
export const EVERYDAY: TrafficCase[] = [
  { method: 'GET', path: '/servers/find' },
  { method: 'GET', path: '/servers/find?limit=10&sort=users' },
  { method: 'GET', path: '/servers/find?limit=10&sort=version&region=eu' },
  { method: 'GET', path: '/servers/find?limit=10&sort=address&page=3' },
  { method: 'GET', path: '/servers/find?limit=10&sort=port&minUsers=5&maxUsers=500' },
  { method: 'GET', path: '/servers/find?limit=10&country=de&favicon=true' },
  { method: 'GET', path: '/servers/find?limit=10&country=Germany&relativeTime=true' },
  { method: 'GET', path: '/servers/find?limit=10&version=1.20*&offlineOnly=on' },
  { method: 'GET', path: '/servers/find?limit=10&motd=survival&noFilter=true&maxAge=90' },
  { method: 'GET', path: '/servers/find?limit=10&minAge=1&maxAge=365' },
  { method: 'GET', path: '/servers/find?limit=10&noFilter=false&favicon=false&relativeTime=false&offlineOnly=off' },
  { method: 'GET', path: '/servers/find?limit=10&city=a&org=o&order=desc' },
  { method: 'GET', path: '/servers/find?limit=5', credential: 'valid-key' },
  { method: 'GET', path: '/servers/find?limit=abc' },
  { method: 'GET', path: '/servers/find?limit=0' },
  { method: 'GET', path: '/metadata/versions' },
  { method: 'GET', path: '/metadata/versions?limit=3&version=1.2*' },
  { method: 'GET', path: '/metadata/countries?country=de' },
  { method: 'GET', path: '/metadata/regions?region=EU' },
  { method: 'GET', path: '/status/ping/not-a-host.invalid' },
  { method: 'GET', path: '/user/apikeys' },
  { method: 'GET', path: '/user/apikeys', credential: 'unknown-key' },
  { method: 'GET', path: '/user/apikeys', credential: 'valid-key' },
  { method: 'GET', path: '/user/apikeys', credential: 'valid-session' },
  { method: 'PUT', path: '/servers/find' },
  { method: 'GET', path: '/no-such-page' },
  { method: 'HEAD', path: '/servers/find?limit=2' },
  { method: 'GET', path: '/servers/find?limit=5', origin: PAGE },
  { method: 'GET', path: '/user/apikeys', credential: 'valid-session', origin: PAGE },
  { method: 'OPTIONS', path: '/user/apikeys', origin: PAGE, preflight: { method: 'POST', headers: 'content-type' } },
  // A page on a deployment's own site, which x-cors does not list: refused, nothing is owed.
  { method: 'GET', path: '/metadata/regions', origin: 'https://www.example.com' },
];

/** The request headers a case carries, as a browser sends them (the session among other cookies). */
export function caseHeaders(c: TrafficCase): Record<string, string> {
  const secret = (name: string) => loadFixtures().credentials.find((x) => x.name === name)!.value;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (c.credential === 'valid-session') headers.cookie = `theme=dark; sls_session=${secret('valid-session')}`;
  else if (c.credential) headers.authorization = `Bearer ${secret(c.credential)}`;
  if (c.body !== undefined) headers['content-type'] = 'application/json';
  if (c.origin) headers.origin = c.origin;
  if (c.preflight) {
    headers['access-control-request-method'] = c.preflight.method;
    if (c.preflight.headers) headers['access-control-request-headers'] = c.preflight.headers;
  }
  return headers;
}
