// What one server record of a listing file must be to be served: the spec's `Server`
// schema, and what its descriptions say that a schema cannot (a PNG data URI or null as
// `favicon`, `players_online` not above `players_limit`), and an ISO 8601 `last_ping`
// (the schema's `format`, said once, with the value that breaks it). One
// rule book for the mock's `--data` loader (mocks/dataset/data-file.ts) and the
// validation proxy's recorder (contract-tests/proxy/dataset-recorder.ts), which marks a
// recorded row that breaks it so that the loader can say which and why.
import type { OpenApiDoc } from './load.ts';
import { SchemaValidator, describeErrors } from './validator.ts';

/** The mark the recorder puts on a row that breaks the spec: what is wrong with it. */
export const BREAKS_SPEC = 'x-breaks-spec';

export const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/;
const FAVICON = /^data:image\/png;base64,[A-Za-z0-9+/]+=*$/;

// Compiled on first use (per spec document): only --data and --record need it, and a
// generated listing should not pay for it at start-up.
const validators = new WeakMap<OpenApiDoc, ReturnType<SchemaValidator['compileRef']>>();
function validateServer(doc: OpenApiDoc): ReturnType<SchemaValidator['compileRef']> {
  let v = validators.get(doc);
  if (!v) validators.set(doc, (v = new SchemaValidator(doc).compileRef('#/components/schemas/Server')));
  return v;
}

/**
 * Everything wrong with one record, most basic first: the schema's findings (one entry,
 * each message once), then the rules the schema cannot state. Empty: it can be served.
 */
export function serverRecordProblems(doc: OpenApiDoc, record: unknown): string[] {
  if (!record || typeof record !== 'object' || Array.isArray(record)) return ['must be an object'];
  const r = record as Record<string, unknown>;
  const out: string[] = [];
  const validate = validateServer(doc);
  if (!validate(r)) {
    const schema = describeErrors(validate.errors, 'record')
      .split('; ')
      .map((m) => m.replace(/^record\./, ''))
      // last_ping's format is said below, with the value that breaks it.
      .filter((m, k, all) => all.indexOf(m) === k && !m.startsWith('last_ping must match format'))
      .join('; ');
    if (schema) out.push(schema);
  }
  if (!('favicon' in r)) out.push(`must have property 'favicon' (a data:image/png;base64 URI or null)`);
  else if (r.favicon !== null && (typeof r.favicon !== 'string' || !FAVICON.test(r.favicon)))
    out.push('favicon must be a data:image/png;base64 URI or null');
  if (
    typeof r.players_online === 'number' &&
    typeof r.players_limit === 'number' &&
    r.players_online > r.players_limit
  ) {
    out.push(`players_online (${r.players_online}) must not be above players_limit (${r.players_limit})`);
  }
  if (typeof r.last_ping !== 'string' || !ISO_DATE.test(r.last_ping) || Number.isNaN(Date.parse(r.last_ping))) {
    out.push(`last_ping must be an ISO 8601 date-time, got ${JSON.stringify(r.last_ping)}`);
  }
  return out;
}
