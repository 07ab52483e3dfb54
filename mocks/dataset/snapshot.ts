// A generated dataset cached on disk, so a second start with the same flags reads
// arrays instead of generating and sorting a million servers again.
//
// What a snapshot is keyed by: the generator (a fingerprint of its tables and of a
// sample of its output, so editing the generator invalidates old snapshots), the
// seed, the count and --clean-data. Not the spec: the sort orders it holds are each
// named by their definition (field, direction, comparison, tie-break: orderKey), so a
// spec that declares other orders takes the ones it shares and sorts the rest. Not
// the clock: timestamps are stored as ages before the generation's "now", so one
// snapshot serves every --now and the real clock alike (the rows come out exactly as
// the generator would make them then).
//
// File: `SLMSNAP1`, a little-endian u32 header length, a JSON header (key, size,
// sections, how each dictionary table is kept, a CRC-32 of the body), then the body:
// every typed array 8-byte aligned, read back as views of one buffer without copying,
// and each dictionary table as JSON text decoded a value at a time when a row asks
// for one (decision 0048).
// Written to a temporary file and renamed, so a reader never sees half a snapshot;
// anything unexpected on reading (another format, a bad checksum, a short file)
// is a miss, never an error.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { crc32 } from 'node:zlib';
import { join } from 'node:path';
import { DICT_FIELDS, type Dataset, type DictColumn, type DictField, type Ids, type Numbers } from './columns.ts';
import type { SortOrders } from './sort-orders.ts';

const MAGIC = Buffer.from('SLMSNAP1');
/**
 * 3: the orders are named by what they are (orderKey), not by the sort values of one spec.
 * 4: the dictionary tables are sections of JSON text decoded a value at a time, not part of the header.
 */
const FORMAT = 4;
/** The prefix of an order's section; the rest of the name is its key. */
const ORDER = 'order.';

/** Snapshots kept per cache directory (the newest; one million servers take about 60 MB). */
export const KEEP_SNAPSHOTS = 4;

/** Below this many servers generating is about as fast as reading: no snapshot. */
export const SNAPSHOT_ABOVE = 20_000;

/** Where snapshots go unless --cache-dir says otherwise: the user's cache directory. */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'server-listing-mock');
}

export interface SnapshotKey {
  generator: string;
  seed: number;
  count: number;
  clean: boolean;
}

export const snapshotFile = (dir: string, key: SnapshotKey): string =>
  join(dir, `servers-${createHash('sha256').update(JSON.stringify(key)).digest('hex').slice(0, 20)}.snap`);

type Kind = 'u8' | 'u16' | 'u32' | 'f64' | 'bytes';
interface Section {
  name: string;
  kind: Kind;
  offset: number;
  length: number;
}
/**
 * How a dictionary table is stored: its distinct values as one JSON array (section `<field>.json`,
 * each value's end in `<field>.ends`), or, for lists, the distinct elements so and each list as
 * indexes into them (`<field>.starts`, `<field>.items`).
 */
type Table = 'values' | 'lists';
interface Header {
  format: number;
  key: SnapshotKey;
  size: number;
  /** The generation's "now" (whole seconds, in ms): section `age` holds (now - last_ping) in seconds. */
  nowSec: number;
  tables: Record<DictField, Table>;
  sections: Section[];
  /** CRC-32 of the body. */
  crc: number;
}

/**
 * JSON with every character past ASCII escaped (`\u00e9`): the header holds the servers' texts (motds, cities),
 * and V8 decodes UTF-8 that is all ASCII several times faster than UTF-8 that is not (measured 0.2 against
 * 0.7 ms or more for the default dataset's 186 KB, on the first createMock's path). It reads back as any JSON.
 */
function asciiJson(value: unknown): string {
  const escaped = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  return JSON.stringify(value).replace(/[\u007f-\uffff]/g, escaped);
}

/** The narrowest array holding these numbers exactly (u16, u32), or the Float64Array itself. */
function narrow(a: Numbers): Numbers {
  let max = 0;
  for (let i = 0; i < a.length; i++) {
    const v = a[i] as number;
    if (!(v >= 0 && v <= 0xffffffff && v === Math.floor(v))) return a;
    if (v > max) max = v;
  }
  const out = max <= 0xffff ? new Uint16Array(a.length) : new Uint32Array(a.length);
  out.set(a);
  return out;
}

const kindOf = (a: Ids | Float64Array | Uint32Array): Kind =>
  a instanceof Uint8Array ? 'u8' : a instanceof Uint16Array ? 'u16' : a instanceof Uint32Array ? 'u32' : 'f64';

type AddSection = (name: string, data: Ids | Float64Array | Uint32Array | Buffer) => void;

/**
 * Values as one JSON array of ASCII text and each value's end in it: the array decodes
 * whole with one JSON.parse, and any one value alone from its slice.
 */
function addJsonValues(values: readonly unknown[], add: AddSection, field: string): void {
  const texts = values.map((v) => asciiJson(v ?? null));
  const ends = new Uint32Array(texts.length);
  let at = 1;
  texts.forEach((t, k) => {
    at += t.length;
    ends[k] = at;
    at += 1;
  });
  add(`${field}.json`, Buffer.from(`[${texts.join(',')}]`, 'latin1'));
  add(`${field}.ends`, ends);
}

function encodeTable(values: readonly unknown[], add: AddSection, field: string): Table {
  if (!values.every(Array.isArray)) {
    addJsonValues(values, add, field);
    return 'values';
  }
  // Player and plugin lists: thousands of distinct lists share a few thousand elements.
  // Elements are shared objects (pool players, plugin names): known by identity first, by their JSON once.
  const elements: unknown[] = [];
  const byIdentity = new Map<unknown, number>();
  const byJson = new Map<string, number>();
  const starts = new Uint32Array(values.length + 1);
  const items: number[] = [];
  values.forEach((list, k) => {
    starts[k] = items.length;
    for (const e of list as unknown[]) {
      let id = byIdentity.get(e);
      if (id === undefined) {
        const j = JSON.stringify(e);
        id = byJson.get(j);
        if (id === undefined) {
          id = elements.length;
          elements.push(e);
          byJson.set(j, id);
        }
        byIdentity.set(e, id);
      }
      items.push(id);
    }
  });
  starts[values.length] = items.length;
  addJsonValues(elements, add, field);
  add(`${field}.starts`, starts);
  add(`${field}.items`, Uint32Array.from(items));
  return 'lists';
}

/** Writes the snapshot of `ds` (generated at `nowSec`) atomically; keeps the newest KEEP_SNAPSHOTS of the directory. */
export function writeSnapshot(dir: string, key: SnapshotKey, ds: Dataset, orders: SortOrders, nowSec: number): string {
  const arrays: { name: string; data: Ids | Float64Array | Uint32Array | Buffer }[] = [];
  const add: AddSection = (name, data) => void arrays.push({ name, data });
  const age = new Float64Array(ds.size);
  // Generated pings are whole seconds before "now": stored in seconds they fit 32 bits.
  for (let i = 0; i < ds.size; i++) age[i] = (nowSec - (ds.lastPing[i] as number)) / 1000;
  add('age', narrow(age));
  // Ports and player counts fit 16 bits: a quarter of the bytes to read, used as they are read.
  add('port', narrow(ds.port));
  add('playersOnline', narrow(ds.playersOnline));
  add('addressStart', ds.addressStart);
  add('addressBytes', ds.addressBytes);
  // Every order: rebuilding them (sortOrders from the address order) costs more than reading them.
  for (const [key, order] of orders) add(`${ORDER}${key}`, order);
  const tables = {} as Record<DictField, Table>;
  for (const f of DICT_FIELDS) {
    add(`ids.${f}`, ds.dict[f].ids);
    tables[f] = encodeTable(ds.dict[f].values, add, f);
  }

  const sections: Section[] = [];
  let offset = 0;
  for (const { name, data } of arrays) {
    offset = (offset + 7) & ~7;
    const kind: Kind = Buffer.isBuffer(data) ? 'bytes' : kindOf(data);
    sections.push({ name, kind, offset, length: Buffer.isBuffer(data) ? data.length : data.length });
    offset += data.byteLength;
  }
  const body = Buffer.alloc((offset + 7) & ~7);
  arrays.forEach(({ data }, k) => {
    body.set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), (sections[k] as Section).offset);
  });
  const header: Header = { format: FORMAT, key, size: ds.size, nowSec, tables, sections, crc: crc32(body) };
  const headerBytes = Buffer.from(asciiJson(header), 'latin1');
  const lead = Buffer.alloc(12);
  MAGIC.copy(lead);
  lead.writeUInt32LE(headerBytes.length, 8);
  const pad = Buffer.alloc((8 - ((12 + headerBytes.length) % 8)) % 8);

  mkdirSync(dir, { recursive: true });
  const file = snapshotFile(dir, key);
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, Buffer.concat([lead, headerBytes, pad]));
    writeFileSync(tmp, body, { flag: 'a' });
    renameSync(tmp, file);
  } catch (err) {
    try {
      unlinkSync(tmp);
    } catch {
      // already gone
    }
    throw err;
  }
  prune(dir, file);
  return file;
}

/** Leaves the newest KEEP_SNAPSHOTS snapshots of `dir` (and never `keep`). */
function prune(dir: string, keep: string): void {
  const snaps = readdirSync(dir)
    .filter((f) => /^servers-[0-9a-f]+\.snap$/.test(f))
    .map((f) => join(dir, f))
    .map((f) => ({ f, t: statSync(f).mtimeMs }))
    .sort((a, b) => b.t - a.t);
  for (const { f } of snaps.slice(KEEP_SNAPSHOTS)) if (f !== keep) unlinkSync(f);
}

export interface Snapshot {
  dataset: Dataset;
  /** The orders it holds, by key (orderKey). */
  orders: SortOrders;
  file: string;
}

/** Why a snapshot could not be used (a miss), or the snapshot itself. */
export function readSnapshot(dir: string, key: SnapshotKey, nowSec: number): Snapshot | { miss: string } {
  const file = snapshotFile(dir, key);
  let buf: Buffer;
  try {
    buf = readFileSync(file);
  } catch {
    return { miss: 'no snapshot yet' };
  }
  try {
    return decode(buf, key, nowSec, file);
  } catch (err) {
    return { miss: `unusable snapshot ${file}: ${(err as Error).message}` };
  }
}

function decode(buf: Buffer, key: SnapshotKey, nowSec: number, file: string): Snapshot {
  if (buf.length < 12 || !buf.subarray(0, 8).equals(MAGIC)) throw new Error('not a snapshot');
  const headerLength = buf.readUInt32LE(8);
  const header = JSON.parse(buf.toString('utf8', 12, 12 + headerLength)) as Header;
  if (header.format !== FORMAT) throw new Error(`format ${header.format}, expected ${FORMAT}`);
  if (JSON.stringify(header.key) !== JSON.stringify(key)) throw new Error('written for other flags');
  const start = (12 + headerLength + 7) & ~7;
  const body = buf.subarray(start);
  // Views need 8-byte alignment in memory: copy the body once if the read buffer is not aligned.
  const base = (buf.byteOffset + start) % 8 === 0 ? body : Buffer.from(body);
  // zlib's CRC-32, not a JS loop: a loop run once at start-up is not optimised in time (measured 2x slower).
  if (base.length % 8 !== 0 || crc32(base) !== header.crc) throw new Error('checksum mismatch (truncated or changed)');
  const section = (name: string): Section => {
    const s = header.sections.find((x) => x.name === name);
    if (!s) throw new Error(`no section ${name}`);
    if (s.offset + s.length * width(s.kind) > base.length) throw new Error(`section ${name} past the end`);
    return s;
  };
  const view = (name: string): Ids | Float64Array | Buffer => {
    const s = section(name);
    const at = base.byteOffset + s.offset;
    switch (s.kind) {
      case 'u8':
        return new Uint8Array(base.buffer, at, s.length);
      case 'u16':
        return new Uint16Array(base.buffer, at, s.length);
      case 'u32':
        return new Uint32Array(base.buffer, at, s.length);
      case 'f64':
        return new Float64Array(base.buffer, at, s.length);
      case 'bytes':
        return base.subarray(s.offset, s.offset + s.length);
    }
  };
  const n = header.size;
  const age = view('age') as ArrayLike<number>;
  const lastPing = new Float64Array(n);
  for (let i = 0; i < n; i++) lastPing[i] = nowSec - (age[i] as number) * 1000;
  const dict = {} as Record<DictField, DictColumn>;
  for (const f of DICT_FIELDS) {
    const ids = view(`ids.${f}`) as Ids;
    if (ids.length !== n) throw new Error(`column ${f} has the wrong length`);
    const json = new JsonValues(view(`${f}.json`) as Buffer, view(`${f}.ends`) as Uint32Array, f);
    dict[f] =
      header.tables[f] === 'lists'
        ? new ListColumn(ids, json, view(`${f}.starts`) as Uint32Array, view(`${f}.items`) as Uint32Array)
        : new JsonColumn(ids, json);
  }
  const dataset: Dataset = {
    size: n,
    addressBytes: view('addressBytes') as Buffer,
    addressStart: view('addressStart') as Uint32Array,
    port: view('port') as Numbers,
    playersOnline: view('playersOnline') as Numbers,
    lastPing,
    dict: dict as unknown as Dataset['dict'],
  };
  const orders = new Map<string, Uint32Array>();
  for (const { name } of header.sections.filter((x) => x.name.startsWith(ORDER))) {
    const order = view(name) as Uint32Array;
    if (order.length !== n) throw new Error(`the order ${name.slice(ORDER.length)} has the wrong length`);
    orders.set(name.slice(ORDER.length), order);
  }
  return { dataset, orders, file };
}

const width = (k: Kind): number => (k === 'u8' || k === 'bytes' ? 1 : k === 'u16' ? 2 : k === 'u32' ? 4 : 8);

/**
 * A table's values as the JSON array text the snapshot holds: one value decoded when first
 * asked for (a page shows a few rows of a thousand), all of them with one JSON.parse when a
 * filter or a sort reads every one. A value handed out stays the same object.
 */
class JsonValues {
  private readonly decoded: unknown[];
  private all: unknown[] | undefined;

  constructor(
    private readonly text: Buffer,
    private readonly ends: Uint32Array,
    field: string,
  ) {
    if (text[0] !== 0x5b || (ends.length ? ends[ends.length - 1]! : 1) !== text.length - 1)
      throw new Error(`table ${field} is not one JSON array`);
    this.decoded = new Array(ends.length);
  }

  get length(): number {
    return this.ends.length;
  }

  at(k: number): unknown {
    if (this.all) return this.all[k];
    let v = this.decoded[k];
    if (v === undefined) {
      const from = k === 0 ? 1 : (this.ends[k - 1] as number) + 1;
      v = this.decoded[k] = JSON.parse(this.text.toString('latin1', from, this.ends[k]));
    }
    return v;
  }

  every(): readonly unknown[] {
    if (!this.all) {
      const all = JSON.parse(this.text.toString('latin1')) as unknown[];
      this.decoded.forEach((v, k) => {
        all[k] = v;
      });
      this.all = all;
    }
    return this.all;
  }
}

/** A column of plain values (texts, numbers, flags), read from a snapshot. */
class JsonColumn implements DictColumn {
  constructor(
    readonly ids: Ids,
    private readonly json: JsonValues,
  ) {}

  get values(): readonly unknown[] {
    return this.json.every();
  }

  value(id: number): unknown {
    return this.json.at(id);
  }
}

/** A column of lists (players, plugins) whose elements are shared, read from a snapshot; each list built once. */
class ListColumn implements DictColumn {
  private readonly built: unknown[][];
  private all: unknown[][] | undefined;

  constructor(
    readonly ids: Ids,
    private readonly elements: JsonValues,
    private readonly starts: Uint32Array,
    private readonly items: Uint32Array,
  ) {
    this.built = new Array(starts.length - 1);
  }

  get values(): readonly unknown[][] {
    if (!this.all) {
      this.elements.every();
      const all = new Array<unknown[]>(this.built.length);
      for (let k = 0; k < all.length; k++) all[k] = this.value(k);
      this.all = all;
    }
    return this.all;
  }

  value(id: number): unknown[] {
    let list = this.built[id];
    if (list === undefined) {
      const from = this.starts[id] as number;
      list = new Array((this.starts[id + 1] as number) - from);
      for (let j = 0; j < list.length; j++) list[j] = this.elements.at(this.items[from + j] as number);
      this.built[id] = list;
    }
    return list;
  }
}
