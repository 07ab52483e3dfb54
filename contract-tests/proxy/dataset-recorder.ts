// `--record <file>`: what the public operations answered, as a dataset the mock serves
// (`npm run mock -- --data <file>`): the mock's `--data` format is the spec's, a `servers`
// array of search rows (a `Server` with its `favicon`), so this module writes it without
// knowing the mock. Every search row and every pinged server is kept once per address
// and port (the latest answer wins, field by field: a favicon seen once stays); a server
// seen only through a ping, which carries no `players`, `plugins` or `motd_stripped`,
// gets none and the MOTD without its colour codes. The metadata answers carry no
// servers: the mock counts its own from the rows. Nothing of `/user/*` or of any
// operation that writes is read, and neither are request headers: no credential,
// cookie or Authorization value can reach the file, and a row holding a credential the
// proxy saw in a request is left out.
//
// Times are kept as ages: the file is the upstream as it stood at `recordedAt`, the time
// (by its Date header) of the last answer recorded, every `last_ping` as it answered it.
// The mock serves each row as much older than its own clock (`--now`, or the real one)
// as it was at `recordedAt`, so a later start replays the same ages, and the rows keep
// their order and the time between them.
// Rows that break the spec are kept, marked with `x-breaks-spec` (why), and the mock's
// loader names them.
import { objectProperties, type Operation, type SpecModel } from '../../spec/model.ts';
import { BREAKS_SPEC, serverRecordProblems } from '../../spec/server-record.ts';
import { redact } from '../kit/mask.ts';

export { BREAKS_SPEC };

/** A search row's schema in the spec. */
const SERVER = '#/components/schemas/Server';

type Row = Record<string, unknown>;

interface Seen {
  row: Row;
  /** When the server was last pinged (ms); undefined when no answer said. */
  lastPing?: number;
  /** The age was read from relative text ("2 hours ago"): good to its unit. */
  approximate: boolean;
  /** Seen in a search answer (it has players, plugins and motd_stripped of its own). */
  searched: boolean;
}

export interface RecordedRequest {
  method: string;
  path: string;
  status: number;
  operationId: string;
}

/** Servers a recording keeps at most (memory is bounded whatever the traffic). */
export const MAX_SERVERS = 500_000;

export interface Recording {
  text: string;
  servers: number;
  marked: number;
  approximate: number;
  /** Rows left out: they held a credential a request carried. */
  withCredential: number;
  /** Servers seen after the cap (maxServers) was reached: not recorded. */
  overCap: number;
  requests: number;
}

const UNITS: Record<string, number> = {
  second: 1e3,
  minute: 60e3,
  hour: 3600e3,
  day: 86_400e3,
  week: 7 * 86_400e3,
  month: 30 * 86_400e3,
  year: 365 * 86_400e3,
};

/** The age relative text says ("just now", "an hour ago", "3 days ago"), or undefined. */
export function ageOfText(text: string): number | undefined {
  const t = text.trim().toLowerCase();
  if (t === 'just now' || t === 'now') return 0;
  const m = /^(\d+|an?|one) (second|minute|hour|day|week|month|year)s? ago$/.exec(t);
  if (!m) return undefined;
  return (/^\d+$/.test(m[1]!) ? Number(m[1]) : 1) * UNITS[m[2]!]!;
}

export class DatasetRecorder {
  private readonly servers = new Map<string, Seen>();
  private readonly requests: RecordedRequest[] = [];
  private notRecorded = 0;
  private lastAnswer = 0;
  private readonly fields: string[];
  private readonly doc: SpecModel['doc'];

  constructor(
    model: SpecModel,
    private readonly source: string,
    private readonly maxServers = MAX_SERVERS,
    private readonly maxRequests = 10_000,
  ) {
    this.fields = [...objectProperties(model.doc, { $ref: SERVER }).keys()];
    this.doc = model.doc;
  }

  /** Whether answers of `op` are recorded: public operations that only read. */
  static records(op: Operation | undefined): op is Operation {
    return Boolean(op?.isPublic && !op.isWrite);
  }

  /** One successful answer of a public operation. `answeredAt`: the answer's time. */
  note(
    op: Operation,
    { path, status, json, answeredAt }: { path: string; status: number; json: unknown; answeredAt: number },
  ): void {
    if (!DatasetRecorder.records(op) || status < 200 || status >= 300) return;
    this.lastAnswer = Math.max(this.lastAnswer, answeredAt);
    if (this.requests.length < this.maxRequests)
      this.requests.push({ method: op.method, path: redact(path), status, operationId: op.operationId });
    const body = json as Record<string, unknown> | undefined;
    const rows =
      op.rows && Array.isArray(body?.[op.rows.property]) ? (body![op.rows.property] as unknown[]) : undefined;
    if (rows && op.rows!.fields.has('address') && op.rows!.fields.has('port')) {
      for (const row of rows) if (row && typeof row === 'object') this.add(row as Row, answeredAt, true);
    } else if (body?.server && typeof body.server === 'object') this.add(body.server as Row, answeredAt, false);
  }

  private add(row: Row, answeredAt: number, searched: boolean): void {
    const key =
      typeof row.address === 'string' && Number.isInteger(row.port)
        ? `${row.address.toLowerCase()}:${row.port}`
        : `row:${JSON.stringify(row)}`;
    let seen = this.servers.get(key);
    if (!seen) {
      if (this.servers.size >= this.maxServers) {
        this.notRecorded++;
        return;
      }
      this.servers.set(key, (seen = { row: {}, approximate: false, searched: false }));
    }
    for (const f of this.fields) {
      // A ping has no rows of players or plugins: a search's stay.
      if (!searched && seen.searched && ['players', 'plugins', 'motd_stripped'].includes(f)) continue;
      if (f in row && f !== 'last_ping') seen.row[f] = row[f];
    }
    seen.searched ||= searched;
    const ping = row.last_ping;
    const exact = typeof ping === 'string' ? Date.parse(ping) : NaN;
    if (!Number.isNaN(exact)) {
      seen.lastPing = exact;
      seen.approximate = false;
    } else if (typeof ping === 'string' && (seen.lastPing === undefined || seen.approximate)) {
      const age = ageOfText(ping);
      if (age !== undefined) {
        seen.lastPing = answeredAt - age;
        seen.approximate = true;
      } else seen.row.last_ping = ping; // kept as it came: the row is marked
    } else if (ping !== undefined && seen.lastPing === undefined) seen.row.last_ping = ping;
  }

  /** The rows as the mock's `--data` file holds them, each checked against the spec. `secrets`: credentials requests carried. */
  recording(secrets: ReadonlySet<string>): Recording {
    const recordedAt = this.lastAnswer || Date.now();
    const servers: Row[] = [];
    let marked = 0;
    let approximate = 0;
    let withCredential = 0;
    const entries = [...this.servers.values()].sort(
      (a, b) => String(a.row.address).localeCompare(String(b.row.address)) || Number(a.row.port) - Number(b.row.port),
    );
    for (const seen of entries) {
      const row: Row = {};
      for (const f of this.fields) {
        if (f === 'last_ping')
          row.last_ping = seen.lastPing !== undefined ? new Date(seen.lastPing).toISOString() : seen.row.last_ping;
        else if (f in seen.row) row[f] = seen.row[f];
      }
      if (!seen.searched) {
        row.players ??= [];
        row.plugins ??= [];
        if (!('motd_stripped' in row))
          row.motd_stripped = typeof row.motd === 'string' ? row.motd.replace(/§[\s\S]/g, '') : null;
      }
      row.favicon ??= null;
      const text = JSON.stringify(row);
      if ([...secrets].some((s) => text.includes(s))) {
        withCredential++;
        continue;
      }
      // What the mock's loader would refuse in it (the same rules: spec/server-record.ts).
      const problems = serverRecordProblems(this.doc, row);
      if (problems.length) {
        row[BREAKS_SPEC] = problems;
        marked++;
      }
      if (seen.approximate) approximate++;
      servers.push(row);
    }
    const text = `${JSON.stringify({ recordedAt: new Date(recordedAt).toISOString(), recordedFrom: this.source, servers, requests: this.requests }, null, 2)}\n`;
    return {
      text,
      servers: servers.length,
      marked,
      approximate,
      withCredential,
      overCap: this.notRecorded,
      requests: this.requests.length,
    };
  }

  /** Servers and answers recorded so far. */
  get size(): { servers: number; answers: number } {
    return { servers: this.servers.size, answers: this.requests.length };
  }
}
