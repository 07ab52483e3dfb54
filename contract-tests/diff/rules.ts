// Every rule the diff reports a change under: its name (oasdiff's where oasdiff has one),
// whom the change breaks, and its severity, which `--fail-on` reads. Whom a change breaks
// follows from what it does to the set of messages the spec allows ([decision 0036]):
// on the request side a narrowed set breaks clients (they may send what is now refused)
// and a widened one breaks implementations (they refuse what is now allowed); on the
// response side the reverse. A change that neither narrows nor widens (another type,
// another meaning) breaks both. Severity: `breaking` when clients break, `warning` when
// only implementations must follow (the deployed one fails the suite until it does),
// `info` when nothing breaks; a few rules say otherwise, and why.
//
// [decision 0036]: ../../docs/decisions/0036-who-a-spec-change-breaks.md

export type Breaks = 'clients' | 'implementations' | 'both' | 'none';
export type Severity = 'breaking' | 'warning' | 'info';
export const SEVERITIES: readonly Severity[] = ['info', 'warning', 'breaking'];

/** What a change does to the messages allowed: fewer, more, other ones, or none at all. */
export type Effect = 'narrows' | 'widens' | 'changes' | 'none';
export type Side = 'request' | 'response';

export interface Rule {
  id: string;
  breaks: Breaks;
  severity: Severity;
  /** What the rule reports, for the rule list. */
  about: string;
  /** Why its severity is not the one its breaks gives. */
  why?: string;
}

/** Whom a change breaks, by the side of the exchange it is on and what it does there. */
export function breaksOf(side: Side | undefined, effect: Effect): Breaks {
  if (effect === 'none') return 'none';
  if (effect === 'changes') return 'both';
  if (!side) return effect === 'narrows' ? 'clients' : 'implementations';
  return (effect === 'narrows') === (side === 'request') ? 'clients' : 'implementations';
}

const SEVERITY_OF: Record<Breaks, Severity> = {
  clients: 'breaking',
  both: 'breaking',
  implementations: 'warning',
  none: 'info',
};

type Entry = [id: string, breaks: Breaks, about: string, severity?: Severity, why?: string];

const FIXED: Entry[] = [
  // Operations (paths and methods)
  ['endpoint-added', 'implementations', 'a new operation: an implementation must serve it'],
  ['api-removed-without-deprecation', 'clients', 'an operation is gone without being deprecated first'],
  [
    'api-removed-with-deprecation',
    'clients',
    'a deprecated operation is gone',
    'warning',
    'it was deprecated: clients were told',
  ],
  [
    'api-operation-id-updated',
    'none',
    'the operationId changed (usage profiles recorded under the old one still count)',
  ],
  ['endpoint-deprecated', 'none', 'an operation is deprecated'],
  ['endpoint-reactivated', 'none', 'an operation is no longer deprecated'],
  // Security, x-permission, x-credentials
  ['api-became-protected', 'clients', 'an operation anyone could call now needs credentials'],
  ['api-became-public', 'implementations', 'an operation that needed credentials is open to anyone'],
  ['api-security-removed', 'clients', 'a security scheme no longer admits callers of an operation'],
  ['api-security-added', 'implementations', 'a security scheme now admits callers of an operation'],
  ['api-permission-added', 'clients', 'an operation now needs an account permission (`x-permission`)'],
  ['api-permission-removed', 'implementations', 'an operation no longer needs an account permission'],
  ['api-permission-changed', 'both', 'an operation needs another account permission'],
  ['api-credentials-narrowed', 'clients', "a scheme's valid credentials may no longer perform it (`x-credentials`)"],
  ['api-credentials-widened', 'implementations', "a scheme's valid credentials may now perform it (`x-credentials`)"],
  ['api-security-component-added', 'none', 'a security scheme is declared'],
  [
    'api-security-component-removed',
    'none',
    'a security scheme is no longer declared (operations that used it say so)',
  ],
  ['api-security-component-changed', 'both', 'a security scheme presents its credential another way'],
  ['base-path-changed', 'both', "the API's base path (the first server URL) moved"],
  ['provenance-changed', 'none', '`x-provenance` changed: the promise is harder or softer than it was'],
  // Parameters
  ['new-required-request-parameter', 'clients', 'a new required parameter: requests without it are refused'],
  ['new-optional-request-parameter', 'implementations', 'a new optional parameter: an implementation must read it'],
  [
    'request-parameter-removed',
    'clients',
    'a parameter is gone: clients that send it are refused, or (an unknown query parameter is ignored) ' +
      'silently get what it filtered out',
  ],
  ['request-parameter-became-required', 'clients', 'a parameter became required'],
  ['request-parameter-became-optional', 'implementations', 'a parameter became optional'],
  [
    'request-parameter-meaning-changed',
    'both',
    '`x-meaning` changed: the parameter does something else to the rows, whatever its schema',
  ],
  ['request-parameter-meaning-added', 'implementations', '`x-meaning` added: the spec now says what it does'],
  ['request-parameter-meaning-removed', 'clients', '`x-meaning` removed: the spec no longer says what it does'],
  ['request-parameter-serialization-updated', 'both', "a parameter's style, explode or allowEmptyValue changed"],
  ['request-parameter-deprecated', 'none', 'a parameter is deprecated'],
  ['request-parameter-reactivated', 'none', 'a parameter is no longer deprecated'],
  // Request bodies
  ['request-body-added-required', 'clients', 'a required request body: requests without one are refused'],
  ['request-body-added-optional', 'implementations', 'an optional request body: an implementation must read it'],
  ['request-body-removed', 'clients', 'the request body is gone: clients that send one are refused or ignored'],
  ['request-body-became-required', 'clients', 'the request body became required'],
  ['request-body-became-optional', 'implementations', 'the request body became optional'],
  ['request-body-media-type-added', 'implementations', 'the request body may be sent as another media type'],
  ['request-body-media-type-removed', 'clients', 'a media type of the request body is no longer accepted'],
  // Responses and their headers
  ['response-success-status-added', 'clients', 'a new success status: clients may get an answer they do not expect'],
  ['response-success-status-removed', 'clients', 'a success status is gone'],
  [
    'response-non-success-status-added',
    'clients',
    'a new error status',
    'warning',
    'clients handle an error status they do not know by its class (4xx, 5xx)',
  ],
  ['response-non-success-status-removed', 'implementations', 'an error status is no longer declared'],
  ['response-media-type-added', 'clients', 'an answer may come as another media type'],
  ['response-media-type-removed', 'implementations', 'an answer no longer comes as a media type'],
  ['response-header-added', 'implementations', 'a new response header: an implementation must send it'],
  ['response-header-removed', 'clients', 'a response header is gone: clients that read it get nothing'],
  // Object properties (request bodies and responses)
  ['new-required-request-property', 'clients', 'a new required request property'],
  ['new-optional-request-property', 'implementations', 'a new optional request property'],
  ['request-property-removed', 'clients', 'a request property is gone: clients that send it are refused or ignored'],
  ['request-property-became-required', 'clients', 'a request property became required'],
  ['request-property-became-optional', 'implementations', 'a request property became optional'],
  ['response-required-property-added', 'implementations', 'a new required response property'],
  ['response-optional-property-added', 'none', 'a new optional response property'],
  ['response-required-property-removed', 'clients', 'a required response property is gone'],
  [
    'response-optional-property-removed',
    'clients',
    'an optional response property is gone',
    'warning',
    'clients already had to do without it',
  ],
  ['response-property-became-required', 'implementations', 'a response property is now always there'],
  ['response-property-became-optional', 'clients', 'a response property may now be absent'],
  ['schema-annotation-changed', 'none', 'readOnly, writeOnly or deprecated changed on a schema'],
  // Limits, routing and the spec's other extensions
  ['limit-decreased', 'clients', 'an `x-max-*` limit decreased (body size, keys per user, page size per plan)'],
  ['limit-increased', 'implementations', 'an `x-max-*` limit increased'],
  ['rate-limit-decreased', 'clients', 'a rate limit (`x-rate-limits`) allows fewer requests'],
  ['rate-limit-increased', 'implementations', 'a rate limit allows more requests'],
  ['rate-limit-added', 'clients', 'a new rate-limit window, tier or path group'],
  ['rate-limit-removed', 'implementations', 'a rate-limit window, tier or path group is gone'],
  ['routing-status-changed', 'both', '`x-routing`: an unknown path or a wrong method gets another status'],
  ['extension-changed', 'both', 'an `x-` extension the mock or the suite reads changed (a default port, a window)'],
  [
    'unclassified-change',
    'both',
    'a change no rule reads',
    'warning',
    'no rule knows what it does: look at it by hand',
  ],
];

/** The schema keyword rules, one per place a schema sits. */
const SCHEMA_WHERES: { where: string; side: Side }[] = [
  { where: 'request-parameter', side: 'request' },
  { where: 'request-property', side: 'request' },
  { where: 'response-property', side: 'response' },
  { where: 'response-header', side: 'response' },
];

const SCHEMA_KEYWORDS: [what: string, effect: Effect, about: string][] = [
  ['type-changed', 'changes', 'the type changed'],
  ['type-generalized', 'widens', 'the type widened (integer to number)'],
  ['type-specialized', 'narrows', 'the type narrowed (number to integer)'],
  ['format-added', 'narrows', 'a format was added'],
  ['format-removed', 'widens', 'the format was removed'],
  ['format-changed', 'changes', 'the format changed'],
  ['became-nullable', 'widens', 'null became a value'],
  ['became-not-nullable', 'narrows', 'null is no longer a value'],
  ['enum-value-added', 'widens', 'an enum value was added'],
  ['enum-value-removed', 'narrows', 'an enum value was removed'],
  ['became-enum', 'narrows', 'the values were restricted to an enum'],
  ['became-not-enum', 'widens', 'the enum was lifted'],
  ['max-decreased', 'narrows', 'an upper bound (maximum, maxLength, maxItems) was lowered or set'],
  ['max-increased', 'widens', 'an upper bound was raised or removed'],
  ['min-increased', 'narrows', 'a lower bound (minimum, minLength, minItems) was raised or set'],
  ['min-decreased', 'widens', 'a lower bound was lowered or removed'],
  ['pattern-added', 'narrows', 'a pattern was added'],
  ['pattern-removed', 'widens', 'the pattern was removed'],
  ['pattern-changed', 'changes', 'the pattern changed'],
  ['additional-properties-changed', 'changes', 'additionalProperties changed'],
];

function schemaRules(): Rule[] {
  const out: Rule[] = [];
  for (const { where, side } of SCHEMA_WHERES) {
    for (const [what, effect, about] of SCHEMA_KEYWORDS) {
      const breaks = breaksOf(side, effect);
      out.push({ id: `${where}-${what}`, breaks, severity: SEVERITY_OF[breaks], about: `${where}: ${about}` });
    }
    // A default is what a request that leaves the value out gets: another one changes those requests' answers.
    const breaks: Breaks = side === 'request' ? 'both' : 'none';
    out.push({
      id: `${where}-default-value-changed`,
      breaks,
      severity: SEVERITY_OF[breaks],
      about:
        `${where}: the default changed, was set or was removed` +
        `${side === 'request' ? ' (requests that leave it out get another answer)' : ''}`,
    });
  }
  return out;
}

export const RULES: ReadonlyMap<string, Rule> = new Map(
  [
    ...FIXED.map(
      ([id, breaks, about, severity, why]): Rule => ({
        id,
        breaks,
        about,
        severity: severity ?? SEVERITY_OF[breaks],
        ...(why ? { why } : {}),
      }),
    ),
    ...schemaRules(),
  ].map((r) => [r.id, r]),
);

export function ruleOf(id: string): Rule {
  const rule = RULES.get(id);
  if (!rule) throw new Error(`no diff rule '${id}'`);
  return rule;
}

/** True when `severity` is `threshold` or worse. */
export const atLeast = (severity: Severity, threshold: Severity): boolean =>
  SEVERITIES.indexOf(severity) >= SEVERITIES.indexOf(threshold);
