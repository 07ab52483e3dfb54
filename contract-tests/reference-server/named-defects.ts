// What the suite must say about each defect of the reference server: the failing check,
// the level of the promise it breaks and the words that name what is wrong. The depth
// families name every defect (checks/families.test.ts runs them in process); the replay
// (Dredd) names some of them again (e2e/replay.test.ts runs it over a socket).
import type { Provenance } from '../../spec/provenance.ts';
import type { Defect } from './defects.ts';

export interface Named {
  operation: string;
  check: RegExp;
  why: RegExp;
  /** The level of the promise the failure breaks. */
  level: Provenance;
}

const PLAIN = /Content-Type is 'text\/plain; charset=UTF-8', expected application\/json/;

/** Each defect, named by the depth families (with or without the replay). */
export const NAMED: Record<Exclude<Defect, 'none'>, Named[]> = {
  'auth-not-enforced': [
    {
      operation: 'listApiKeys',
      check: /^auth: no credentials -> 401/,
      why: /status 200, expected 401/,
      level: 'assumed',
    },
  ],
  'wrong-401-message': [
    {
      operation: 'listApiKeys',
      check: /^schema: the body matches the schema its status declares/,
      why: /listApiKeys 401: body\.message must be one of "Unauthorized: Invalid API key or session"/,
      level: 'assumed',
    },
  ],
  'missing-field': [
    {
      operation: 'findServers',
      check: /^schema: the body matches the schema its status declares/,
      why: /findServers 200: body\.results\.0 must have property 'port'/,
      level: 'observed',
    },
  ],
  'wrong-type': [
    {
      operation: 'findServers',
      check: /^schema: the body matches the schema its status declares/,
      why: /findServers 200: body\.results\.0\.port must be integer/,
      level: 'observed',
    },
  ],
  'limit-ignored': [
    {
      operation: 'findServers',
      check: /^paging: results\.length is at most limit/,
      why: /results\.length is \d+, more than limit=3: limit is ignored/,
      level: 'observed',
    },
  ],
  'secret-in-list': [
    {
      operation: 'createApiKey',
      check: /^keys: a created key's secret never appears in the list/,
      why: /the answer carries 1 secret the suite created/,
      level: 'assumed',
    },
  ],
  'wrong-status': [
    {
      operation: 'createApiKey',
      check: /^auth: a valid session -> 201/,
      why: /createApiKey does not declare 200/,
      level: 'assumed',
    },
  ],
  'nulls-past-page-one': [
    {
      operation: 'findServers',
      check: /^sample: every row of every sampled page matches the spec's schema/,
      why: /&page=[2-9]\d*\): findServers 200: body\.results\.\d+\.players_online must be integer/,
      level: 'observed',
    },
  ],
  'false-as-true': [
    {
      operation: 'findServers',
      check: /^default: noFilter=false answers like noFilter left out/,
      why: /with noFilter=false the body's keys change: -filtered/,
      level: 'observed',
    },
    {
      operation: 'findServers',
      check: /^default: favicon=false answers like favicon left out/,
      why: /with favicon=false the rows change: .*\+favicon/,
      level: 'observed',
    },
  ],
  'wrong-default-sort': [
    {
      operation: 'findServers',
      check: /^sort: \(no parameters\): rows in the default order/,
      why: /last_ping ".*" comes after last_ping ".*" \(descending expected\)/,
      level: 'observed',
    },
  ],
  'ignored-filter': [
    {
      operation: 'findServers',
      check: /^meaning: org matches a part of asn_name/,
      why: /\d+ of \d+ rows break it \(org=.*\), e\.g\. .*asn_name/,
      level: 'observed',
    },
  ],
  'motd-raw': [
    {
      operation: 'findServers',
      check: /^meaning: motd matches a part of motd_stripped across § colour codes of motd/,
      why: /no row at all, but .* satisfies it/,
      level: 'observed',
    },
  ],
  'total-counts-hidden': [
    {
      operation: 'findServers',
      check: /^sample: total equals the rows reachable by paging/,
      why: /total is \d+ but paging .* reached \d+ distinct rows/,
      level: 'observed',
    },
    {
      operation: 'findServers',
      check: /^meaning: noFilter=true shows the hidden rows/,
      why: /total is \d+ with noFilter=true, but \d+ \+ filtered \d+ = \d+ without it/,
      level: 'observed',
    },
  ],
  // A count that moves with the page, while page 1 asked again does not: a paging defect, not a live count.
  'total-per-page': [
    {
      operation: 'findServers',
      check: /^sample: total is the same on every page of a query/,
      why: /total \d+ on page 1, \d+ on page \d+ \(page 1 again: \d+\)/,
      level: 'observed',
    },
  ],
  'sql-500': [
    {
      operation: 'findServers',
      check: /^negative: query limit=abc \(not an integer\) -> 400/,
      why: /^status 500: the server failed: .*ER_PARSE_ERROR/,
      level: 'interface',
    },
    {
      operation: 'findServers',
      check: /^negative: query minUsers=abc \(not an integer\) -> 400/,
      why: /^status 500: the server failed: .*ER_PARSE_ERROR/,
      level: 'observed',
    },
    {
      operation: 'findServers',
      check: /^hygiene: no answer leaks/,
      why: /SQL text: .*You have an error in your SQL syntax/,
      level: 'assumed',
    },
    {
      operation: 'findServers',
      check: /^hygiene: no answer leaks/,
      why: /stack trace: .*Sequence\.js:47:14/,
      level: 'assumed',
    },
  ],
  'html-404': [
    {
      operation: '(no operation)',
      check: /^errors: an unknown path -> 404 with the JSON error body/,
      why: /404 body is not JSON: <!DOCTYPE html>/,
      level: 'assumed',
    },
  ],
  '404-wrong-method': [
    {
      operation: 'findServers',
      check: /^errors: PUT \/servers\/find \(not declared\) -> 405 with Allow: GET/,
      why: /status 404, expected 405/,
      level: 'assumed',
    },
  ],
  'out-of-range-accepted': [
    {
      operation: 'findServers',
      check: /^negative: query limit=501 \(above maximum 500\) -> 400/,
      why: /status 200, expected 400/,
      level: 'interface',
    },
    {
      operation: 'findServers',
      check: /^negative: query sort=zzzzz \(not one of users, version, address, port, updated\) -> 400/,
      why: /status 200, expected 400/,
      level: 'observed',
    },
  ],
  'limit-dependent-count': [
    {
      operation: 'listVersions',
      check: /^meaning: limit cuts the rows and leaves unique_versions alone/,
      why: /unique_versions is \d+ with limit=\d+ but \d+ without: it must not depend on limit/,
      level: 'observed',
    },
  ],
  'bare-error-body': [
    {
      operation: 'findServers',
      check: /^schema: the body matches the schema its status declares/,
      why: /findServers 400: body must have property 'success'; body must have property 'message'/,
      level: 'interface',
    },
  ],
  'missing-route': [
    {
      operation: 'listVersions',
      check: /^public: a request with a valid API key still succeeds/,
      why: /status 404, expected 200/,
      level: 'observed',
    },
  ],
  'no-rate-limit-headers': [
    {
      operation: 'findServers',
      check: /^headers: every answer carries the headers its status declares/,
      why: new RegExp(
        'findServers 200: X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset missing ' +
          String.raw`\((\d+) of \1 answers judged`,
      ),
      level: 'observed',
    },
  ],
  'text-plain-json': [
    {
      operation: 'findServers',
      check: /^json: every answer is JSON/,
      why: PLAIN,
      level: 'interface',
    },
  ],
  'refuses-credentials': [
    {
      operation: 'listApiKeys',
      check: /^auth: a valid API key -> 200/,
      why: /status 401, expected 200/,
      level: 'assumed',
    },
  ],
  // Found by the generated requests, each shrunk to the smallest request that still fails.
  'repeated-param-500': [
    {
      operation: 'findServers',
      check: /^generated: a query parameter sent twice: /,
      why: /^status 500: the server failed: .*ER_OPERAND_COLUMNS.*; it leaks SQL text/,
      level: 'assumed',
    },
  ],
  'encoded-colon-404': [
    {
      operation: 'pingServer',
      check: /^generated: path parameters with percent-encoded characters/,
      why: /status 404, but 200 for the same request spelt plainly/,
      level: 'assumed',
    },
  ],
  'utf8mb4-500': [
    {
      operation: 'findServers',
      check: /^generated: values with 4-byte UTF-8 and control characters: /,
      why: /^status 500: the server failed: .*ER_TRUNCATED_WRONG_VALUE_FOR_FIELD/,
      level: 'assumed',
    },
  ],
  'foreign-param-500': [
    {
      operation: 'listCountries',
      check: /^generated: query parameters other operations take: /,
      why: /^status 500: the server failed: .*\(seed \d+/,
      level: 'assumed',
    },
  ],
  'cors-wildcard-with-credentials': [
    {
      operation: 'findServers',
      check: /^cors: GET from an allowed origin: /,
      why: /^Origin http:\/\/localhost:5173 got Access-Control-Allow-Origin: \*, which a browser refuses/,
      level: 'interface',
    },
  ],
  'cors-no-expose-headers': [
    {
      operation: 'listApiKeys',
      check: /^cors: a call with the session cookie from an allowed origin: /,
      why: /^Access-Control-Expose-Headers is absent: a page cannot read X-RateLimit-Limit, X-RateLimit-Remaining, /,
      level: 'assumed',
    },
  ],
  'cors-preflight-missing-method': [
    {
      operation: 'revokeApiKey',
      check: /^cors: a preflight of DELETE \/user\/apikeys\/\{id\} from an allowed origin -> 204/,
      why: /Access-Control-Allow-Methods 'GET, HEAD, POST', which leaves out DELETE$/,
      level: 'assumed',
    },
  ],
  'cors-any-origin': [
    {
      operation: 'findServers',
      check: /^cors: GET from an origin no deployment allows: granted nothing/,
      why: /^Origin (https:\/\/not-allowed\.invalid), which no deployment may allow, got [\w-]+: \1$/,
      level: 'assumed',
    },
  ],
};

/** The defects the replay names too: each operation's documented success, as Dredd replays it. */
export const REPLAY_NAMED: Partial<Record<Exclude<Defect, 'none'>, Named[]>> = {
  'missing-field': [
    {
      operation: 'findServers',
      check: /^Dredd: GET \/servers\/find -> 200 body matches FindResponse/,
      why: /body\.results\.0 must have property 'port'/,
      level: 'observed',
    },
  ],
  'wrong-type': [
    {
      operation: 'findServers',
      check: /^Dredd: GET \/servers\/find -> 200 body matches FindResponse/,
      why: /body\.results\.0\.port must be integer/,
      level: 'observed',
    },
  ],
  'wrong-status': [
    {
      operation: 'createApiKey',
      check: /^Dredd: POST \/user\/apikeys -> 201/,
      why: /createApiKey does not declare 200/,
      level: 'assumed',
    },
  ],
  'missing-route': [
    {
      operation: 'listVersions',
      check: /^Dredd: GET \/metadata\/versions -> 200 as the spec says/,
      why: /status 404, expected 200/,
      level: 'observed',
    },
  ],
  'text-plain-json': [
    {
      operation: 'findServers',
      check: /^Dredd: GET \/servers\/find -> 200 as the spec says/,
      why: PLAIN,
      level: 'interface',
    },
  ],
};

/**
 * Every interface promise a defect breaks, each failure it may cause at that level: an interface-only run must show
 * these and nothing else.
 */
export const INTERFACE: Partial<Record<Defect, Omit<Named, 'level'>[]>> = {
  'sql-500': [
    {
      operation: 'findServers',
      check: /^(negative: query limit=abc|server-error: )/,
      why: /status 500: the server failed/,
    },
    // The crash's page is no JSON, which the interface promises every answer is.
    { operation: 'findServers', check: /^json: /, why: /^500 body is not JSON: Error: ER_PARSE_ERROR/ },
  ],
  'out-of-range-accepted': [
    { operation: 'findServers', check: /^negative: query limit=(0|501) /, why: /status 200, expected 400/ },
  ],
  'bare-error-body': [{ operation: 'findServers', check: /^schema: /, why: /body must have property 'success'/ }],
  // Every JSON answer of the one interface operation says text/plain.
  'text-plain-json': [{ operation: 'findServers', check: /^(Dredd|json): /, why: PLAIN }],
  // Credentials cross-origin are the interface's: `*` breaks every credentialed call, whatever origins are allowed.
  'cors-wildcard-with-credentials': [
    { operation: 'findServers', check: /^cors: GET from an allowed origin/, why: /Access-Control-Allow-Origin: \*/ },
  ],
};

/**
 * Defects that share a run: none of them hides or imitates another's failure; at most one breaks an interface promise.
 */
export const GROUPS: Defect[][] = [
  ['none'],
  ['auth-not-enforced', 'missing-field', 'html-404', 'cors-no-expose-headers'],
  ['wrong-401-message', 'wrong-type', '404-wrong-method', 'cors-preflight-missing-method'],
  ['limit-ignored', 'secret-in-list', 'motd-raw', 'cors-any-origin'],
  ['wrong-status', 'nulls-past-page-one', 'sql-500', 'total-per-page'],
  ['false-as-true', 'wrong-default-sort', 'bare-error-body'],
  ['total-counts-hidden', 'out-of-range-accepted', 'ignored-filter', 'limit-dependent-count'],
  ['missing-route', 'no-rate-limit-headers', 'cors-wildcard-with-credentials'],
  ['text-plain-json', 'refuses-credentials'],
  ['repeated-param-500', 'encoded-colon-404'],
  ['utf8mb4-500', 'foreign-param-500'],
];

/** A failure as a check reports it. */
export interface Failure {
  operation: string;
  check: string;
  level: string;
  why: string;
}

export const names = (f: Failure, n: Omit<Named, 'level'>): boolean =>
  f.operation === n.operation && n.check.test(f.check) && n.why.test(f.why);

/**
 * Many independent defects across the families on one server: the run must name each as one cause, and nothing else.
 */
export const MANY: Exclude<Defect, 'none'>[] = [
  'wrong-401-message',
  'secret-in-list',
  'nulls-past-page-one',
  'limit-ignored',
  'false-as-true',
  'out-of-range-accepted',
  'sql-500',
  'html-404',
  'no-rate-limit-headers',
  'total-per-page',
  'repeated-param-500',
  'encoded-colon-404',
  'utf8mb4-500',
  'foreign-param-500',
  'cors-no-expose-headers',
  'cors-any-origin',
];

/** The cause each defect must be named as, alone: a run of several defects has one cause per defect and no other. */
export const CAUSES: Record<Exclude<Defect, 'none'>, RegExp> = {
  'auth-not-enforced': /^answers 200 where the spec says 401: GET \/user\/apikeys \(\d+ checks\)$/,
  'wrong-401-message': /^schema: body\.message must be one of "Unauthorized: Invalid API key or session"/,
  'missing-field': /^schema: body\.results\.\* must have property 'port'/,
  'wrong-type': /^schema: body\.results\.\*\.port must be integer/,
  'limit-ignored': /^findServers: limit: results\.length is \d+, more than limit=3: limit is ignored/,
  'secret-in-list': /^a secret leaks: listApiKeys answers carry each key's secret \(keys\.\*\.secret\)/,
  'wrong-status': /^answers 200 where the spec says 201: POST \/user\/apikeys/,
  'nulls-past-page-one': /^schema: body\.results\.\*\.players_online must be integer/,
  'false-as-true': new RegExp(
    '^a boolean parameter set to false does not answer like the parameter left out ' +
      String.raw`.*\((3 of the \d+ ${'`'}default:${'`'} checks|\d+ checks): ` +
      Array(3).fill('(favicon|relativeTime|noFilter)').join(', ') +
      String.raw`\)$`,
  ),
  'wrong-default-sort': /^findServers: sort: (\d+ out of order|with sort=updated the rows come in another order)/,
  'ignored-filter': /^findServers: org: \d+ of \d+ rows break it/,
  'motd-raw': /^findServers: motd: no row at all/,
  'total-counts-hidden': /^findServers: total: total is \d+ with noFilter=true, but/,
  'total-per-page': /^findServers: total: .*total \d+ on page 1, \d+ on page 2/,
  'sql-500': /^server error: 500 Error: ER_PARSE_ERROR: You have an error in your SQL syntax/,
  'html-404': /^Content-Type is 'text\/html' where the spec promises application\/json$/,
  '404-wrong-method': /^answers 404 where the spec says 405: PUT \/servers\/find, /,
  'out-of-range-accepted': /^the target accepts values the spec refuses \(\d+ of the \d+ `negative:` checks\)$/,
  'limit-dependent-count': /^listVersions: limit: unique_versions is \d+ with limit=\d+ but \d+ without/,
  'bare-error-body': /^schema: body must have property 'success'/,
  'missing-route': /^route missing: GET \/metadata\/versions answers 404 to every request/,
  'no-rate-limit-headers': new RegExp(
    '^response headers X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset ' +
      String.raw`missing from every answer of \d+ operations$`,
  ),
  'text-plain-json': /^Content-Type is 'text\/plain' where the spec promises application\/json \(on every answer\)$/,
  'refuses-credentials': /^valid credentials refused: every request with the API key/,
  'repeated-param-500': /^server error: 500 Error: ER_OPERAND_COLUMNS: Operand should contain # column\(s\)/,
  'encoded-colon-404': /^a path parameter with a percent-encoded character is answered otherwise than the plain one/,
  'utf8mb4-500': /^server error: 500 Internal Server Error: ER_TRUNCATED_WRONG_VALUE_FOR_FIELD: Incorrect string value/,
  'foreign-param-500': new RegExp(
    '^server error: 500 Internal Server Error: the request could not be completed ' +
      String.raw`\(TypeError\) \(GET /metadata/countries\)$`,
  ),
  'cors-wildcard-with-credentials':
    /^Access-Control-Allow-Origin: \* where x-cors allows credentials: browsers refuse every credentialed call \(/,
  'cors-no-expose-headers':
    /^Access-Control-Expose-Headers leaves out headers x-cors exposes \(2 of the \d+ `cors:` checks\)$/,
  'cors-preflight-missing-method':
    /^Access-Control-Allow-Methods of a preflight leaves out methods its path declares \(1 of the \d+ `cors:` /,
  'cors-any-origin': /^an origin x-cors does not allow is granted \(1 of the \d+ `cors:` checks\)$/,
};
