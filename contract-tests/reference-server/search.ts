// The reference server's search and metadata: its own reading of the API (written from
// the documented behaviour, not from spec/model.ts, so it can catch the model's
// mistakes), with switches for the search defects the suite must find.
import type { ReferenceRow } from './data.ts';

export interface SearchDefects {
  falseAsTrue: boolean;
  wrongDefaultSort: boolean;
  ignoredFilter: boolean;
  motdRaw: boolean;
  totalCountsHidden: boolean;
  totalPerPage: boolean;
  outOfRangeAccepted: boolean;
  limitDependentCount: boolean;
  limitIgnored: boolean;
}

/** A refused query: which parameter and why; or a 500 the SQL-leak defect answers. */
export class QueryError extends Error {
  constructor(
    readonly parameter: string,
    readonly rule: string,
  ) {
    super(`query parameter '${parameter}' ${rule}`);
  }
}

const DAY = 86_400_000;
const REGIONS = ['NA', 'EU', 'AS', 'SA', 'AF', 'OC', 'AN'];
const SORTS = ['users', 'version', 'address', 'port', 'updated'];

/** Reads the query as real clients send it: an empty value is no value; unknown names are ignored. */
export class QueryReader {
  constructor(
    private readonly q: Record<string, string>,
    private readonly lenient: boolean,
  ) {}

  text(name: string, maxLength: number): string | undefined {
    const v = this.q[name];
    if (v === undefined || v === '') return undefined;
    if (v.length > maxLength) throw new QueryError(name, `must be at most ${maxLength} characters`);
    return v;
  }

  int(name: string, min: number, max: number): number | undefined {
    const v = this.q[name];
    if (v === undefined || v === '') return undefined;
    if (!/^-?\d+$/.test(v)) throw new QueryError(name, 'must be an integer');
    const n = Number(v);
    if (n < min || n > max) {
      if (this.lenient) return Math.min(max, Math.max(min, n));
      throw new QueryError(name, `must be between ${min} and ${max}`);
    }
    return n;
  }

  bool(name: string, truthy: boolean): boolean {
    const v = this.q[name];
    if (v === undefined || v === '') return false;
    if (v !== 'true' && v !== 'false') throw new QueryError(name, 'must be true or false');
    // The defect: any value given at all counts as true.
    return truthy ? true : v === 'true';
  }

  /**
   * One of `values`; `anyCase`: written in any case (`eu` is `EU`: the spec says a text filter's words take any case).
   */
  oneOf(name: string, values: string[], fallback?: string, anyCase = false): string | undefined {
    const raw = this.q[name];
    if (raw === undefined || raw === '') return fallback;
    const v = anyCase ? (values.find((w) => w.toLowerCase() === raw.toLowerCase()) ?? raw) : raw;
    if (!values.includes(v)) {
      if (this.lenient) return fallback;
      throw new QueryError(name, `must be one of ${values.join(', ')}`);
    }
    return v;
  }
}

function matcher(pattern: string, whole: boolean): (v: string | null) => boolean {
  const body = pattern
    .split('*')
    .map((s) => s.replace(/[\\^$.|?+()[\]{}]/g, '\\$&'))
    .join('.*');
  const re = new RegExp(whole ? `^${body}$` : body, 'i');
  return (v) => v !== null && re.test(v);
}

/** A row's last ping in ms, read once per row (the search reads it for every request). */
const pinged = new WeakMap<ReferenceRow, number>();
const pingMs = (r: ReferenceRow): number => {
  let ms = pinged.get(r);
  if (ms === undefined) pinged.set(r, (ms = Date.parse(r.last_ping)));
  return ms;
};

/** Numeric-aware text order (`1.9` before `1.10`), one collator for every comparison. */
const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });
const naturally = (a: string, b: string) => collator.compare(a, b);
const byAddress = (a: ReferenceRow, b: ReferenceRow) =>
  a.address < b.address ? -1 : a.address > b.address ? 1 : a.port - b.port;
const SORTERS: Record<string, (a: ReferenceRow, b: ReferenceRow) => number> = {
  users: (a, b) => b.players_online - a.players_online,
  version: (a, b) => naturally(b.version, a.version),
  address: () => 0,
  port: (a, b) => a.port - b.port,
  updated: (a, b) => pingMs(b) - pingMs(a),
};

export const isHidden = (row: ReferenceRow) => row.asn_name !== null && /tcpshield/i.test(row.asn_name);

export function search(rows: ReferenceRow[], query: Record<string, string>, defects: SearchDefects, now: number) {
  const q = new QueryReader(query, defects.outOfRangeAccepted);
  const asked = q.int('limit', 1, 500) ?? 50;
  const limit = defects.limitIgnored ? 50 : asked;
  const page = q.int('page', 1, 1_000_000) ?? 1;
  const tests: ((r: ReferenceRow) => boolean)[] = [];
  const version = q.text('version', 64);
  if (version && version !== '*') {
    const match = matcher(version, true);
    tests.push((r) => match(r.version));
  }
  const minUsers = q.int('minUsers', 0, Number.MAX_SAFE_INTEGER);
  if (minUsers !== undefined) tests.push((r) => r.players_online >= minUsers);
  const maxUsers = q.int('maxUsers', 0, Number.MAX_SAFE_INTEGER);
  if (maxUsers !== undefined) tests.push((r) => r.players_online <= maxUsers);
  const minAge = q.int('minAge', 0, 3650);
  if (minAge !== undefined) tests.push((r) => now - pingMs(r) >= minAge * DAY);
  const maxAge = q.int('maxAge', 0, 3650) ?? 30;
  tests.push((r) => now - pingMs(r) <= maxAge * DAY);
  const region = q.oneOf('region', REGIONS, undefined, true);
  if (region) tests.push((r) => r.region === region);
  const country = q.text('country', 100);
  if (country)
    tests.push(
      /^[a-z]{2}$/i.test(country)
        ? (r) => r.country_code?.toLowerCase() === country.toLowerCase()
        : (
            (match) => (r: ReferenceRow) =>
              match(r.country)
          )(matcher(country, true)),
    );
  const code = q.text('country_code', 100);
  if (code !== undefined && !/^[a-z]{2}$/i.test(code)) throw new QueryError('country_code', 'must be two letters');
  if (code) tests.push((r) => r.country_code?.toLowerCase() === code.toLowerCase());
  const city = q.text('city', 100);
  if (city) {
    const match = matcher(city, false);
    tests.push((r) => match(r.city));
  }
  const motd = q.text('motd', 100);
  if (motd) {
    const match = matcher(motd, false);
    tests.push(defects.motdRaw ? (r) => match(r.motd) : (r) => match(r.motd_stripped));
  }
  const org = q.text('org', 100);
  if (org && !defects.ignoredFilter) {
    const match = matcher(org, false);
    tests.push((r) => match(r.asn_name));
  }
  const asn = q.int('asn', 0, 4294967295);
  if (asn !== undefined) tests.push((r) => r.asn_number === String(asn));
  const modpack = q.text('modpack', 100)?.toLowerCase();
  if (modpack)
    tests.push(
      (r) => r.detected_mod_pack?.toLowerCase() === modpack || r.detected_mod_pack_short?.toLowerCase() === modpack,
    );
  q.text('order', 16);
  const offline = q.text('offlineOnly', 16);
  if (offline && offline !== 'off') tests.push((r) => r.offline_mode === 1);
  const sort = q.oneOf('sort', SORTS, 'updated')!;
  const favicon = q.bool('favicon', defects.falseAsTrue);
  const relative = q.bool('relativeTime', defects.falseAsTrue);
  const noFilter = q.bool('noFilter', defects.falseAsTrue);

  const matching = rows.filter((r) => tests.every((t) => t(r)));
  const hidden = noFilter ? [] : matching.filter(isHidden);
  const shown = noFilter ? matching : matching.filter((r) => !isHidden(r));
  const order = defects.wrongDefaultSort && !query.sort ? SORTERS.address! : SORTERS[sort]!;
  shown.sort((a, b) => order(a, b) || byAddress(a, b));
  const results = shown.slice((page - 1) * limit, page * limit).map((r) => {
    const { favicon: icon, ...row } = r;
    const ping = relative ? ago(now - pingMs(r)) : r.last_ping;
    return { ...row, last_ping: ping, ...(favicon ? { favicon: icon } : {}) };
  });
  const total = shown.length + (defects.totalCountsHidden ? hidden.length : 0) + (defects.totalPerPage ? page - 1 : 0);
  return { displayed: results.length, total, ...(noFilter ? {} : { filtered: hidden.length }), results, page };
}

function ago(ms: number): string {
  const [n, unit] =
    ms < 3_600_000
      ? [Math.max(1, Math.floor(ms / 60_000)), 'minute']
      : ms < DAY
        ? [Math.floor(ms / 3_600_000), 'hour']
        : [Math.floor(ms / DAY), 'day'];
  return `${n} ${unit}${n === 1 ? '' : 's'} ago`;
}

export function versions(rows: ReferenceRow[], query: Record<string, string>, defects: SearchDefects) {
  const q = new QueryReader(query, defects.outOfRangeAccepted);
  const filter = q.text('version', 64);
  const limit = q.int('limit', 1, 10_000);
  const counts = new Map<string, number>();
  const match = filter ? matcher(filter, true) : () => true;
  for (const r of rows) if (match(r.version)) counts.set(r.version, (counts.get(r.version) ?? 0) + 1);
  const all = [...counts]
    .map(([version, num_servers]) => ({ version, num_servers }))
    .sort((a, b) => b.num_servers - a.num_servers || (a.version < b.version ? -1 : 1));
  const shown = limit === undefined ? all : all.slice(0, limit);
  return { unique_versions: defects.limitDependentCount ? shown.length : all.length, versions: shown };
}

export function countries(rows: ReferenceRow[], query: Record<string, string>, now: number) {
  const filter = new QueryReader(query, false).text('country', 100);
  const test = !filter
    ? () => true
    : /^[a-z]{2}$/i.test(filter)
      ? (r: ReferenceRow) => r.country_code?.toLowerCase() === filter.toLowerCase()
      : (
          (match) => (r: ReferenceRow) =>
            match(r.country)
        )(matcher(filter, true));
  const counts = new Map<string, { country: string; country_code: string; num_servers: number }>();
  for (const r of rows) {
    // A server without a GeoIP record is in no country's count.
    if (r.country === null || r.country_code === null || now - pingMs(r) > 30 * DAY || !test(r)) continue;
    const c = counts.get(r.country_code) ?? { country: r.country, country_code: r.country_code, num_servers: 0 };
    c.num_servers++;
    counts.set(r.country_code, c);
  }
  const list = [...counts.values()].sort((a, b) => b.num_servers - a.num_servers || (a.country < b.country ? -1 : 1));
  return { unique_countries: list.length, countries: list };
}

export function regions(rows: ReferenceRow[], query: Record<string, string>) {
  const only = new QueryReader(query, false).oneOf('region', REGIONS, undefined, true);
  const counts = new Map<string, number>();
  for (const r of rows)
    if (r.region !== null && (!only || r.region === only)) counts.set(r.region, (counts.get(r.region) ?? 0) + 1);
  const list = [...counts]
    .map(([region, num_servers]) => ({ region, num_servers }))
    .sort((a, b) => (a.region < b.region ? -1 : 1));
  return { unique_regions: list.length, total_servers: list.reduce((n, r) => n + r.num_servers, 0), regions: list };
}
