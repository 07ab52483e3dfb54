// Loads a hand-edited server listing (`--data`, json-server's `{"servers": [...]}`) and
// checks every record against the spec and the mock's own rules before it is served.
import { readFileSync } from 'node:fs';
import { loadSpec, type OpenApiDoc } from '../../spec/load.ts';
import { SchemaValidator, describeErrors } from '../../spec/validator.ts';
import { serverKey, type StoredServer } from './server-row.ts';

// Compiled on first use (per spec document): only --data needs it, and a generated
// listing should not pay for it at start-up.
const serverValidators = new WeakMap<OpenApiDoc, ReturnType<SchemaValidator['compileRef']>>();
function validateServer(doc: OpenApiDoc): ReturnType<SchemaValidator['compileRef']> {
  let v = serverValidators.get(doc);
  if (!v) serverValidators.set(doc, (v = new SchemaValidator(doc).compileRef('#/components/schemas/Server')));
  return v;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/;
const FAVICON = /^data:image\/png;base64,[A-Za-z0-9+/]+=*$/;

/**
 * Reads `{"servers": [...]}` (json-server db.json layout), checks every record and
 * returns the servers. `last_ping` is normalised to `toISOString()` form.
 * Throws an Error naming the file, the record and the broken rule.
 */
export function loadDataset(path: string, spec: OpenApiDoc = loadSpec()): StoredServer[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(`${path}: cannot read the file: ${(err as Error).message}`);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new Error(`${path}: not valid JSON: ${(err as Error).message}`);
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc) || !Array.isArray((doc as { servers?: unknown }).servers)) {
    throw new Error(`${path}: expected an object with a "servers" array ({"servers": [...]})`);
  }
  const records = (doc as { servers: unknown[] }).servers;
  const validate = validateServer(spec);
  const seen = new Map<string, number>();
  const out: StoredServer[] = [];
  records.forEach((rec, i) => {
    const r = rec as Record<string, unknown>;
    const where =
      r && typeof r === 'object' && !Array.isArray(r)
        ? `${typeof r.address === 'string' ? r.address : '?'}:${typeof r.port === 'number' || typeof r.port === 'string' ? r.port : '?'}`
        : '?';
    const fail = (rule: string): never => {
      throw new Error(`${path}: servers[${i}] (${where}): ${rule}`);
    };
    if (!r || typeof r !== 'object' || Array.isArray(r)) fail('must be an object');
    if (!validate(r)) {
      const msg = describeErrors(validate.errors, 'record')
        .split('; ')
        .map((m) => m.replace(/^record\./, ''))
        .filter((m, k, all) => all.indexOf(m) === k)
        .join('; ');
      fail(msg);
    }
    if (!('favicon' in r)) fail(`must have property 'favicon' (a data:image/png;base64 URI or null)`);
    if (r.favicon !== null && (typeof r.favicon !== 'string' || !FAVICON.test(r.favicon))) fail('favicon must be a data:image/png;base64 URI or null');
    const s = r as unknown as StoredServer;
    if (s.players_online > s.players_limit) fail(`players_online (${s.players_online}) must not be above players_limit (${s.players_limit})`);
    const t = Date.parse(s.last_ping);
    if (!ISO_DATE.test(s.last_ping) || Number.isNaN(t)) fail(`last_ping must be an ISO 8601 date-time, got ${JSON.stringify(s.last_ping)}`);
    const key = serverKey(s.address, s.port);
    const dup = seen.get(key);
    if (dup !== undefined) fail(`address:port duplicates servers[${dup}]`);
    seen.set(key, i);
    out.push({ ...s, last_ping: new Date(t).toISOString() });
  });
  return out;
}
