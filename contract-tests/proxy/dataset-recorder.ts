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
// proxy saw (shared/mask.ts finds it, in time linear in the row) is left out.
//
// Rows are written as they arrive, to a spool file beside the recording; memory holds
// only where each server's latest fields are in it (a few numbers per server), so a
// listing of any size, favicons and all, is recorded in bounded memory. On exit the file
// is written row by row from the spool (never one string), to a temporary file renamed
// over the recording once whole; a row that cannot be read back is counted, not thrown.
//
// Times are kept as ages: the file is the upstream as it stood at `recordedAt`, the time
// (by its Date header) of the last answer recorded, every `last_ping` as it answered it.
// The mock serves each row as much older than its own clock (`--now`, or the real one)
// as it was at `recordedAt`, so a later start replays the same ages, and the rows keep
// their order and the time between them. A time no date can hold ("1e30 years ago") is
// kept as it came, and marked.
// Rows that break the spec are kept, marked with `x-breaks-spec` (why), and the mock's
// loader names them.
import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { objectProperties, type Operation, type SpecModel } from '../../spec/model.ts';
import { BREAKS_SPEC, serverRecordProblems } from '../../spec/server-record.ts';
import { holdsSecret, redact } from '../shared/mask.ts';

export { BREAKS_SPEC };

/** A search row's schema in the spec. */
const SERVER = '#/components/schemas/Server';

type Row = Record<string, unknown>;

/** Where some of a server's latest fields are in the spool. */
interface Ref {
  at: number;
  length: number;
  /** Which fields (bits by their index in the schema) this piece still gives. */
  fields: number;
  /** A hash of the piece: the same row seen again is not written again. */
  hash: string;
}

interface Seen {
  refs: Ref[];
  /** When the server was last pinged (ms); undefined when no answer said. */
  lastPing?: number;
  /** A `last_ping` no time could be read from, kept as it came (the row is then marked). */
  rawPing?: unknown;
  /** The age was read from relative text ("2 hours ago"): good to its unit. */
  approximate: boolean;
  /** Seen in a search answer (it has players, plugins and motd_stripped of its own). */
  searched: boolean;
  /** A piece of it held a credential when it came. */
  credential: boolean;
}

export interface RecordedRequest {
  method: string;
  path: string;
  status: number;
  operationId: string;
}

/** Servers a recording keeps at most (its index in memory is bounded whatever the traffic). */
export const MAX_SERVERS = 500_000;
/** The spool's size at most: past it, new rows are counted, not kept. */
const MAX_SPOOL_BYTES = 8 * 2 ** 30;
/** Bytes gathered before one write to the spool or the file. */
const CHUNK = 2 ** 20;

export interface Recording {
  file: string;
  servers: number;
  marked: number;
  approximate: number;
  /** Rows left out: they held a credential a request carried. */
  withCredential: number;
  /** Servers seen after the cap (maxServers) was reached, or past the spool's size: not recorded. */
  overCap: number;
  /** Rows that could not be read back from the spool (left out). */
  unreadable: number;
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

/** A time a Date can hold (JavaScript's range, ±100,000,000 days around 1970). */
const isTime = (ms: number) => Number.isFinite(ms) && Math.abs(ms) <= 8.64e15;

/** Writes text to a file descriptor in chunks of about CHUNK bytes. */
class ChunkedWriter {
  private parts: string[] = [];
  private pending = 0;
  written = 0;
  constructor(private readonly fd: number) {}
  /** Appends text; returns the byte offset it starts at. */
  write(text: string): number {
    const at = this.written + this.pending;
    this.parts.push(text);
    this.pending += Buffer.byteLength(text);
    if (this.pending >= CHUNK) this.flush();
    return at;
  }
  flush(): void {
    if (!this.pending) return;
    const bytes = Buffer.from(this.parts.join(''));
    let off = 0;
    while (off < bytes.length) off += writeSync(this.fd, bytes, off, bytes.length - off);
    this.written += bytes.length;
    this.parts = [];
    this.pending = 0;
  }
}

export class DatasetRecorder {
  private readonly servers = new Map<string, Seen>();
  private readonly requests: RecordedRequest[] = [];
  private notRecorded = 0;
  private lastAnswer = 0;
  private readonly fields: string[];
  private readonly doc: SpecModel['doc'];
  private readonly spoolPath: string;
  private spool: { fd: number; out: ChunkedWriter } | undefined;

  /** `file`: where the recording goes on `finish()`; its spool is written beside it meanwhile. */
  constructor(
    model: SpecModel,
    private readonly source: string,
    private readonly file: string,
    private readonly maxServers = MAX_SERVERS,
    private readonly maxRequests = 10_000,
  ) {
    this.fields = [...objectProperties(model.doc, { $ref: SERVER }).keys()];
    // A field set is one number's bits.
    if (this.fields.length > 31) throw new Error(`the Server schema has ${this.fields.length} fields: at most 31`);
    this.doc = model.doc;
    mkdirSync(dirname(file), { recursive: true });
    this.spoolPath = join(dirname(file), `.${basename(file)}.${process.pid}.spool`);
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
    // On disk once its answer is read: a process that dies keeps what it saw in the spool.
    this.spool?.out.flush();
  }

  private openSpool(): { fd: number; out: ChunkedWriter } {
    if (!this.spool) {
      const fd = openSync(this.spoolPath, 'w+');
      this.spool = { fd, out: new ChunkedWriter(fd) };
    }
    return this.spool;
  }

  private add(row: Row, answeredAt: number, searched: boolean): void {
    let key: string;
    if (typeof row.address === 'string' && Number.isInteger(row.port)) key = `${row.address.toLowerCase()}:${row.port}`;
    else key = `row:${createHash('sha1').update(JSON.stringify(row)).digest('base64')}`;
    let seen = this.servers.get(key);
    if (!seen) {
      if (this.servers.size >= this.maxServers) {
        this.notRecorded++;
        return;
      }
      this.servers.set(key, (seen = { refs: [], approximate: false, searched: false, credential: false }));
    }
    // The piece this answer gives: its fields but last_ping (kept as a time); a ping has no rows of players or plugins.
    const piece: Row = {};
    let mask = 0;
    this.fields.forEach((f, i) => {
      if (!(f in row) || f === 'last_ping') return;
      if (!searched && seen.searched && (f === 'players' || f === 'plugins' || f === 'motd_stripped')) return;
      piece[f] = row[f];
      mask |= 1 << i;
    });
    seen.searched ||= searched;
    this.notePing(seen, row.last_ping, answeredAt);
    if (!mask) return;
    const line = `${JSON.stringify(piece)}\n`;
    if (holdsSecret(line)) seen.credential = true;
    const hash = createHash('sha1').update(line).digest('base64');
    const last = seen.refs[seen.refs.length - 1];
    // The same fields as the last piece: nothing new to write.
    if (last && last.hash === hash && last.fields === mask) return;
    const spool = this.openSpool();
    if (spool.out.written + CHUNK > MAX_SPOOL_BYTES) {
      this.notRecorded++;
      return;
    }
    const at = spool.out.write(line);
    for (const r of seen.refs) r.fields &= ~mask;
    seen.refs = seen.refs.filter((r) => r.fields !== 0);
    seen.refs.push({ at, length: Buffer.byteLength(line), fields: mask, hash });
  }

  private notePing(seen: Seen, ping: unknown, answeredAt: number): void {
    const exact = typeof ping === 'string' ? Date.parse(ping) : Number.NaN;
    if (isTime(exact)) {
      seen.lastPing = exact;
      seen.approximate = false;
      seen.rawPing = undefined;
    } else if (typeof ping === 'string' && (seen.lastPing === undefined || seen.approximate)) {
      const age = ageOfText(ping);
      const at = age === undefined ? Number.NaN : answeredAt - age;
      if (isTime(at)) {
        seen.lastPing = at;
        seen.approximate = true;
        seen.rawPing = undefined;
      } else {
        // Kept as it came: the row is marked.
        seen.lastPing = undefined;
        seen.rawPing = ping;
      }
    } else if (ping !== undefined && seen.lastPing === undefined) seen.rawPing = ping;
  }

  /** A server's row put back together from its pieces in the spool, as the mock's `--data` holds it. */
  private rowOf(seen: Seen, fd: number): Row {
    const piece: Row[] = [];
    for (const ref of seen.refs) {
      const bytes = Buffer.allocUnsafe(ref.length);
      let got = 0;
      while (got < ref.length) {
        const n = readSync(fd, bytes, got, ref.length - got, ref.at + got);
        if (n === 0) throw new Error('the spool ended early');
        got += n;
      }
      piece.push(JSON.parse(bytes.toString('utf8')) as Row);
    }
    const row: Row = {};
    for (const [i, f] of this.fields.entries()) {
      if (f === 'last_ping') {
        row.last_ping = seen.lastPing !== undefined ? new Date(seen.lastPing).toISOString() : seen.rawPing;
        continue;
      }
      const from = seen.refs.findIndex((r) => r.fields & (1 << i));
      if (from !== -1) row[f] = piece[from]![f];
    }
    if (!seen.searched) {
      row.players ??= [];
      row.plugins ??= [];
      if (!('motd_stripped' in row))
        row.motd_stripped = typeof row.motd === 'string' ? row.motd.replace(/§[\s\S]/g, '') : null;
    }
    row.favicon ??= null;
    return row;
  }

  /**
   * Writes the recording, row by row, to a temporary file renamed over `file` once whole,
   * each row checked against the spec and for credentials; then the spool is gone.
   */
  finish(): Recording {
    const recordedAt = this.lastAnswer || Date.now();
    const counts = { servers: 0, marked: 0, approximate: 0, withCredential: 0, unreadable: 0 };
    const temp = `${this.file}.${process.pid}.tmp`;
    const fd = openSync(temp, 'w');
    try {
      const out = new ChunkedWriter(fd);
      out.write(
        `{\n  "recordedAt": ${JSON.stringify(new Date(recordedAt).toISOString())},\n  "recordedFrom": ` +
          `${JSON.stringify(this.source)},\n  "servers": [`,
      );
      this.spool?.out.flush();
      // By address, then port (a key is `address:port` in lower case).
      const entries = [...this.servers.entries()]
        .map(([key, seen]) => {
          const colon = key.lastIndexOf(':');
          return { host: key.slice(0, colon), port: Number(key.slice(colon + 1)), seen };
        })
        .sort((a, b) => (a.host < b.host ? -1 : a.host > b.host ? 1 : a.port - b.port));
      for (const { seen } of entries) {
        let row: Row;
        let text: string;
        try {
          row = this.rowOf(seen, this.spool?.fd ?? -1);
          text = JSON.stringify(row);
        } catch {
          counts.unreadable++;
          continue;
        }
        if (seen.credential || holdsSecret(text)) {
          counts.withCredential++;
          continue;
        }
        // What the mock's loader would refuse in it (the same rules: spec/server-record.ts).
        const problems = serverRecordProblems(this.doc, row);
        if (problems.length) {
          row[BREAKS_SPEC] = problems;
          text = JSON.stringify(row);
          counts.marked++;
        }
        if (seen.approximate) counts.approximate++;
        out.write(`${counts.servers ? ',' : ''}\n    ${text}`);
        counts.servers++;
      }
      const requests = this.requests.map((r) => `    ${JSON.stringify(r)}`).join(',\n');
      out.write(`${counts.servers ? '\n  ' : ''}],\n  "requests": [${requests ? `\n${requests}\n  ` : ''}]\n}\n`);
      out.flush();
      closeSync(fd);
      renameSync(temp, this.file);
    } catch (err) {
      closeSync(fd);
      rmSync(temp, { force: true });
      throw err;
    } finally {
      this.abandon();
    }
    return { file: this.file, ...counts, overCap: this.notRecorded, requests: this.requests.length };
  }

  /** Removes the spool without writing a recording. */
  abandon(): void {
    if (!this.spool) return;
    closeSync(this.spool.fd);
    this.spool = undefined;
    rmSync(this.spoolPath, { force: true });
  }

  /** Servers and answers recorded so far. */
  get size(): { servers: number; answers: number } {
    return { servers: this.servers.size, answers: this.requests.length };
  }
}
