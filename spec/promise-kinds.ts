// The kinds of promise the spec makes, each with the judges that fail when a target
// breaks one (spec/judges/registry.ts, or a comparison of spec/judges/comparisons.ts) and
// the family of the contract suite whose cases provoke it. spec/promises.ts lists every
// promise of a spec under one of these kinds; a kind no judge holds says why. A promise
// is a tester's reading: each way the spec's words constrain a part, one each, so that a
// target breaking only that one is failed by a judge (Schemathesis' coverage phase reads
// a schema keyword by keyword the same way: the value at a bound, past it, each enum
// value, ...).

/** What holds a kind: its judges, the families that provoke them, or why nothing does. */
export interface KindEntry {
  /** The judges and comparisons that fail when a promise of the kind is broken. */
  judges: readonly string[];
  /** The families (and their cases) that send what provokes it. */
  provokedBy: readonly string[];
  /** Why no judge holds it, when none does. */
  uncovered?: string;
}

const kind = (judges: string[], provokedBy: string[], uncovered?: string): KindEntry => ({
  judges,
  provokedBy,
  ...(uncovered ? { uncovered } : {}),
});

const ROWS = ['meaning'];

export const KINDS = {
  // The operation as a whole.
  route: kind(['declared-status', 'routing'], ['Dredd', 'sample', 'meaning', 'auth', 'public']),
  status: kind([], []),
  'error-body': kind(['schema', 'error-body'], ['negative', 'auth', 'errors']),
  json: kind(['json'], ['public', 'auth', 'every answer']),
  'no-server-error': kind(['server-error'], ['generated', 'negative', 'every answer']),
  'no-leak': kind(['hygiene'], ['negative', 'auth', 'errors', 'every answer']),
  // A parameter, a property of the request body.
  'param-type': kind(['refused-values'], ['negative']),
  'param-accepts': kind(['success'], ['edges', 'meaning', 'sample']),
  'param-refuses': kind(['refused-values'], ['negative']),
  'param-any-case': kind(['success', 'filters'], ['edges', 'meaning']),
  'param-default': kind(['left-out'], ['default']),
  'param-empty': kind(['success'], ['edges', 'generated']),
  'body-unknown': kind(['refused-values'], ['negative']),
  'body-optional': kind(['success'], ['edges']),
  // What a parameter does to the rows (`x-meaning`, spec/rules.ts).
  bound: kind(['filters', 'witness'], ROWS),
  age: kind(['filters', 'witness'], ROWS),
  'text-whole': kind(['filters'], ROWS),
  'text-substring': kind(['filters', 'witness'], ROWS),
  'text-wildcard': kind(['filters', 'witness'], ROWS),
  'text-case': kind(['filters', 'witness'], ROWS),
  'text-raw': kind(['filters', 'witness'], ROWS),
  'text-code': kind(['filters', 'witness'], ROWS),
  'equals-field': kind(['filters', 'witness'], ROWS),
  flag: kind(['filters', 'witness'], ROWS),
  'adds-field': kind(['filters', 'switches'], ['meaning', 'default']),
  'relative-time': kind(['filters', 'switches', 'schema'], ['meaning', 'default']),
  'reveals-hidden': kind(['reveals-hidden', 'switches'], ['meaning', 'default']),
  'limits-rows': kind(['page', 'counts-kept'], ['meaning', 'paging', 'sample']),
  'page-past-end': kind(['page'], ['paging']),
  'total-steady': kind(['total-steady'], ['sample']),
  'total-reached': kind(['total-reached'], ['sample']),
  'sort-order': kind(['order', 'order-across'], ['sort']),
  'sort-tie-break': kind(['order', 'order-across'], ['sort']),
  'sort-default': kind(['order', 'left-out'], ['sort', 'default']),
  ignored: kind(['left-out', 'order'], ['meaning']),
  // A field of an answer's body, wherever the spec's schemas put it.
  'field-type': kind(['schema'], ['every answer']),
  'field-format': kind(['schema'], ['every answer']),
  'field-enum': kind(['schema'], ['every answer']),
  'field-pattern': kind(['schema'], ['every answer']),
  'field-minimum': kind(['schema'], ['every answer']),
  'field-maximum': kind(['schema'], ['every answer']),
  'field-min-length': kind(['schema'], ['every answer']),
  'field-max-length': kind(['schema'], ['every answer']),
  'field-required': kind(['schema'], ['every answer']),
  'field-nullable': kind(['schema'], ['every answer']),
  'field-one-of': kind(['schema'], ['every answer']),
  'field-absent': kind(['schema', 'secrets'], ['keys', 'every answer']),
  'field-secret': kind(['secrets'], ['keys']),
  'field-count-of': kind(['counts'], ['every answer']),
  'field-true-when': kind(['true-when'], ['every answer']),
  // A header an answer declares.
  'header-present': kind(['headers'], ['every answer']),
  'header-value': kind(['headers'], ['every answer']),
  'rate-limit-countdown': kind(['rate-limit'], ['every answer']),
  'rate-limit-reset': kind(['rate-limit'], ['every answer']),
  'rate-limit-warning': kind(['rate-limit'], ['every answer (a 429 met)']),
  // Who may call an operation.
  'auth-missing': kind(['auth'], ['auth']),
  'auth-unknown': kind(['auth'], ['auth']),
  'auth-malformed': kind(['auth'], ['auth']),
  'auth-expired': kind(['auth'], ['auth (CONTRACT_EXPIRED_API_KEY, CONTRACT_EXPIRED_SESSION_COOKIE)']),
  'auth-revoked': kind(['auth'], ['keys']),
  'auth-permission': kind(['auth'], ['auth (CONTRACT_FORBIDDEN_API_KEY)']),
  'auth-scheme': kind(['auth'], ['auth']),
  'auth-valid': kind(['success'], ['auth']),
  'public-credentials': kind(['public-credentials', 'success'], ['public']),
  // Requests that match no operation.
  'routing-unknown-path': kind(['routing', 'json'], ['errors']),
  'routing-wrong-method': kind(['routing'], ['errors']),
  // The numbers the spec states as extensions.
  'body-limit': kind(['body-limit'], ['errors']),
  'key-cap': kind(['key-cap'], ['errors']),
  'page-size-by-plan': kind(
    [],
    [],
    "which plan the suite's credentials are on is the target's to know: a page cut to it cannot be told from a page " +
      'cut to another',
  ),
  'default-port': kind(['about', 'success'], ['sample (pings)']),
  'refresh-after': kind(
    [],
    [],
    "x-refresh-after-minutes names no field: which time is older than it (the server's last_ping) the spec says in " +
      'prose only',
  ),
  'window-days': kind(
    [],
    [],
    "the countries' counts carry no ping time of their servers: nothing in an answer shows the window",
  ),
  'rate-limit-tier': kind(
    [],
    [],
    "which account and tier a target counts a request under is the target's to know (keys and sessions of one user " +
      'share counters, invalid credentials count as anonymous)',
  ),
  // What a client may do next with an answer (`links`).
  link: kind(['listed', 'auth', 'success'], ['keys']),
  // What a browser app on another origin is answered (`x-cors`).
  'cors-grant': kind(['cors'], ['cors']),
  'cors-vary': kind(['cors'], ['cors']),
  'cors-expose': kind(['cors'], ['cors']),
  'cors-preflight': kind(['cors'], ['cors']),
  'cors-preflight-headers': kind(['cors'], ['cors']),
  'cors-max-age': kind(['cors'], ['cors']),
  'cors-foreign': kind(['cors'], ['cors']),
  // An extension of the spec no kind above reads: held by the judges that say they hold it.
  extension: kind([], []),
} as const satisfies Record<string, KindEntry>;

export type Kind = keyof typeof KINDS;

/** The judges of a status an operation declares, by what owes it (spec/judges/owed-status.ts). */
export function statusEntry(status: number): KindEntry {
  if (status >= 200 && status < 300) return kind(['success', 'declared-status'], ['Dredd', 'auth', 'public']);
  switch (status) {
    case 400:
      return kind(['refused-values'], ['negative']);
    case 401:
    case 403:
      return kind(['auth'], ['auth']);
    case 404:
      return kind(['not-found'], ['errors', 'sample (pings)']);
    case 409:
      return kind(['key-cap'], ['errors']);
    case 413:
      return kind(['body-limit'], ['errors']);
    case 415:
      return kind(['media-type'], ['errors']);
    case 429:
      return kind(
        ['headers', 'error-body', 'rate-limit'],
        ['every answer (a 429 met)'],
        // Judged when met; the suite keeps within the limits rather than provoke them.
      );
    default:
      return kind(
        [],
        [],
        status >= 500
          ? 'a server error cannot be provoked on purpose; every 5xx met fails server-error'
          : 'no rule of the spec says which request is owed it',
      );
  }
}
