// Loads a hand-edited server listing (`--data`, json-server's `{"servers": [...]}`) and
// checks every record against the spec and the mock's own rules before it is served.
// A file the validation proxy recorded (`--record`) says two more things: `recordedAt`,
// the time its rows' ages are counted from (each is served that much older than the
// mock's clock, `--now` or the real one, so a later start replays the same ages), and
// rows it marked `x-breaks-spec` (what the upstream sent against the spec): such a row
// is named with why, and left out while it still breaks the spec.
import { readFileSync } from 'node:fs';
import { loadSpec, type OpenApiDoc } from '../../spec/load.ts';
import { BREAKS_SPEC, ISO_DATE, serverRecordProblems } from '../../spec/server-record.ts';
import { serverKey, type StoredServer } from './server-row.ts';

export { BREAKS_SPEC };

/** Marked rows named one by one, at most this many; the rest are counted. */
const NAMED_MARKS = 20;

export interface DatasetOptions {
  /** The mock's clock (ms): a file with `recordedAt` is served as that many ms later. Default: now. */
  now?: number;
  /** Where the lines about marked rows go (default console.warn). */
  warn?: (line: string) => void;
}

/**
 * Reads `{"servers": [...]}` (json-server db.json layout), checks every record and
 * returns the servers. `last_ping` is normalised to `toISOString()` form.
 * Throws an Error naming the file, the record and the broken rule.
 */
export function loadDataset(path: string, spec: OpenApiDoc = loadSpec(), options: DatasetOptions = {}): StoredServer[] {
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
  const recordedAt = (doc as { recordedAt?: unknown }).recordedAt;
  let shift = 0;
  if (recordedAt !== undefined) {
    const t = typeof recordedAt === 'string' && ISO_DATE.test(recordedAt) ? Date.parse(recordedAt) : NaN;
    if (Number.isNaN(t))
      throw new Error(`${path}: recordedAt must be an ISO 8601 date-time, got ${JSON.stringify(recordedAt)}`);
    shift = (options.now ?? Date.now()) - t;
  }
  const warn = options.warn ?? ((line: string) => console.warn(line));
  const seen = new Map<string, number>();
  const out: StoredServer[] = [];
  const left: string[] = [];
  records.forEach((rec, i) => {
    const marked = rec && typeof rec === 'object' && !Array.isArray(rec) && BREAKS_SPEC in rec;
    let r = rec as Record<string, unknown>;
    let marks: unknown;
    if (marked) ({ [BREAKS_SPEC]: marks, ...r } = r);
    const why = marked ? (Array.isArray(marks) ? marks.map(String).join('; ') : String(marks)) : '';
    const where =
      r && typeof r === 'object' && !Array.isArray(r)
        ? `${typeof r.address === 'string' ? r.address : '?'}:` +
          `${typeof r.port === 'number' || typeof r.port === 'string' ? r.port : '?'}`
        : '?';
    const fail = (rule: string): never => {
      throw new Error(`${path}: servers[${i}] (${where}): ${rule}`);
    };
    if (marked) {
      // A row the recorder marked: left out, and named, while it still breaks the spec.
      try {
        out.push(check(r, i, fail));
      } catch (err) {
        left.push(`${(err as Error).message.slice(path.length + 2)} (the recorder saw: ${why})`);
      }
      return;
    }
    out.push(check(r, i, fail));
  });
  if (left.length) {
    warn(
      `mock: ${path}: ${left.length} of ${records.length} servers left out, marked by the recorder as ` +
        `breaking the spec:`,
    );
    for (const line of left.slice(0, NAMED_MARKS)) warn(`  ${line}`);
    if (left.length > NAMED_MARKS) warn(`  and ${left.length - NAMED_MARKS} more`);
  }
  return out;

  /** The record as it is served, or a failure naming the rule it breaks. */
  function check(r: Record<string, unknown>, i: number, fail: (rule: string) => never): StoredServer {
    return servedRow(spec, r, i, seen, shift, fail);
  }
}

/** A record checked by the spec's rules and unique by address:port (`seen`), its time moved by `shift` ms. */
function servedRow(
  spec: OpenApiDoc,
  r: Record<string, unknown>,
  i: number,
  seen: Map<string, number>,
  shift: number,
  fail: (rule: string) => never,
): StoredServer {
  const [problem] = serverRecordProblems(spec, r);
  if (problem !== undefined) fail(problem);
  const s = r as unknown as StoredServer;
  const t = Date.parse(s.last_ping);
  const key = serverKey(s.address, s.port);
  const dup = seen.get(key);
  if (dup !== undefined) fail(`address:port duplicates servers[${dup}]`);
  seen.set(key, i);
  return { ...s, last_ping: new Date(t + shift).toISOString() };
}

/**
 * Rows given in code (createMock's `servers`), checked as a file's are; a bad one throws
 * naming `who`, its index, its address and the rule it breaks.
 */
export function checkRows(records: readonly Record<string, unknown>[], spec: OpenApiDoc, who: string): StoredServer[] {
  const seen = new Map<string, number>();
  return records.map((r, i) =>
    servedRow(spec, r, i, seen, 0, (rule) => {
      throw new Error(`${who}: servers[${i}] (${String(r.address)}:${String(r.port)}): ${rule}`);
    }),
  );
}
