// The server listing as columns. A million servers as a million objects cost over a
// gigabyte and seconds of garbage collection; as columns they are a few typed arrays:
// each text or JSON field is a dictionary column (one small integer per row into a
// table of its distinct values, nearly all fields repeat a few hundred values), the
// numbers search sorts and filters on are Float64Arrays, and the addresses (distinct
// per row) are one UTF-8 buffer. A row object exists only when a page needs it.
//
// The same shape is what mocks/dataset/snapshot.ts writes to disk and maps back, so a cached
// start reads arrays instead of building objects.
import type { StoredServer } from './server-row.ts';

/** The fields stored as dictionary columns, in the order rows list them. */
export const DICT_FIELDS = [
  'version',
  'offline_mode',
  'players_limit',
  'motd',
  'motd_stripped',
  'players',
  'plugins',
  'country',
  'country_code',
  'region',
  'city',
  'asn_number',
  'asn_name',
  'favicon',
  'detected_mod_pack',
  'detected_mod_pack_short',
] as const satisfies readonly (keyof StoredServer)[];
export type DictField = (typeof DICT_FIELDS)[number];

const DICT = new Set<string>(DICT_FIELDS);
export const isDictField = (field: string): field is DictField => DICT.has(field);

export type Ids = Uint8Array | Uint16Array | Uint32Array;

/**
 * A number per row: Float64Array as built; a snapshot keeps small integers in 16 or 32 bits and reads them as they are.
 */
export type Numbers = Float64Array | Uint32Array | Uint16Array;

/**
 * A dictionary column: row -> id, id -> value. `value(id)` is what a row is built from;
 * `values` is every distinct value at once (filters, sorts, metadata). A snapshot's column
 * decodes a value when it is first asked for, so a column read from disk costs nothing
 * until a page shows one of its rows (snapshot.ts).
 */
export interface DictColumn<T = unknown> {
  readonly ids: Ids;
  readonly values: readonly T[];
  value(id: number): T;
}

/** A column whose distinct values are in memory (generated, interned). */
export class ValuesColumn<T = unknown> implements DictColumn<T> {
  constructor(
    readonly ids: Ids,
    readonly values: readonly T[],
  ) {}

  value(id: number): T {
    return this.values[id] as T;
  }
}

export interface Dataset {
  readonly size: number;
  /** Addresses as UTF-8: row i is `addressBytes[addressStart[i] .. addressStart[i + 1]]`. */
  readonly addressBytes: Buffer;
  readonly addressStart: Uint32Array;
  readonly port: Numbers;
  readonly playersOnline: Numbers;
  /** `last_ping` in ms since the epoch. */
  readonly lastPing: Float64Array;
  readonly dict: { readonly [F in DictField]: DictColumn<StoredServer[F]> };
}

/** The narrowest unsigned array that holds ids below `distinct`. */
export function idsFor(distinct: number, n: number): Ids {
  return distinct <= 256 ? new Uint8Array(n) : distinct <= 65536 ? new Uint16Array(n) : new Uint32Array(n);
}

/**
 * Interns one field's values: equal primitives share an id; objects (player lists,
 * plugin lists) share one when they are the same object or serialise alike, so pooled
 * arrays cost one lookup and fresh ones one JSON.stringify.
 */
class Interner {
  readonly values: unknown[] = [];
  readonly ids: Ids;
  // The previous value and its id: neighbouring rows often share one, and this skips the Map.
  private last: unknown = {};
  private lastId = -1;
  private readonly primitive = new Map<unknown, number>();
  private readonly byObject = new Map<object, number>();
  private readonly byJson = new Map<string, number>();

  /** `distinct`: at most this many values will come (narrower ids from the start). */
  constructor(capacity: number, distinct = 2 ** 32) {
    this.ids = idsFor(distinct, capacity);
  }

  id(v: unknown): number {
    if (v === this.last) return this.lastId;
    const id = this.lookup(v);
    this.last = v;
    this.lastId = id;
    return id;
  }

  /** A value known to equal none before or after it: its own id, nothing compared or remembered. */
  add(v: unknown): number {
    return this.values.push(v) - 1;
  }

  private lookup(v: unknown): number {
    if (v !== null && typeof v === 'object') {
      let id = this.byObject.get(v);
      if (id !== undefined) return id;
      const json = JSON.stringify(v);
      id = this.byJson.get(json);
      if (id === undefined) {
        id = this.values.length;
        this.values.push(v);
        this.byJson.set(json, id);
      }
      // Only shared (frozen) objects are worth remembering by identity: a
      // fresh array per row would pin every row's copy.
      if (Object.isFrozen(v)) this.byObject.set(v, id);
      return id;
    }
    let id = this.primitive.get(v);
    if (id === undefined) {
      id = this.values.length;
      this.values.push(v);
      this.primitive.set(v, id);
    }
    return id;
  }

  column(n: number): DictColumn {
    const ids = idsFor(this.values.length, n);
    if (ids.constructor === this.ids.constructor && n === this.ids.length)
      return new ValuesColumn(this.ids, this.values);
    ids.set(this.ids.subarray(0, n));
    return new ValuesColumn(ids, this.values);
  }
}

/**
 * A dictionary column written by key: each row names which entry of its writer's table
 * it drew (a version's index, a pool slot), and only a key's first use interns its value.
 * The ids come out as interning the rows themselves would number them (first use first,
 * lists equal when they serialise alike): mocks/dataset/generator.ts writes a million rows
 * this way, one array read per field.
 */
export class KeyedColumn<T> {
  private readonly interner: Interner;
  private readonly idOfKey: Int32Array;

  /**
   * `keys`: how many keys there are; `valueAt`: the value of a key; `unique`: this key's
   * value equals no other key's (it skips comparing: a list serialised to compare costs
   * more than everything else a row does).
   */
  constructor(
    rows: number,
    keys: number,
    private readonly valueAt: (key: number) => T,
    private readonly unique: (key: number) => boolean = () => false,
  ) {
    this.interner = new Interner(rows, keys);
    this.idOfKey = new Int32Array(keys).fill(-1);
  }

  set(row: number, key: number): void {
    let id = this.idOfKey[key] as number;
    if (id < 0) {
      const value = this.valueAt(key);
      this.idOfKey[key] = id = this.unique(key) ? this.interner.add(value) : this.interner.id(value);
    }
    this.interner.ids[row] = id;
  }

  column(n: number): DictColumn<T> {
    return this.interner.column(n) as DictColumn<T>;
  }
}

/**
 * The address column as it is written: one growing UTF-8 buffer and each row's start
 * (a million retained strings would cost the GC dearly). A writer reserves room for a
 * row, writes into `bytes` from `length` and moves `length` on.
 */
export class AddressColumn {
  bytes: Buffer;
  length = 0;
  private readonly start: Uint32Array;

  /** `bytesPerRow`: a guess at the average address length (the buffer grows past it). */
  constructor(rows: number, bytesPerRow = 16) {
    this.start = new Uint32Array(rows + 1);
    this.bytes = Buffer.allocUnsafeSlow(Math.max(1 << 16, rows * bytesPerRow));
  }

  /** Row i starts here; at least `more` bytes are free after it. */
  reserve(i: number, more: number): void {
    this.start[i] = this.length;
    if (this.length + more <= this.bytes.length) return;
    const bigger = Buffer.allocUnsafeSlow(Math.max(2 * this.bytes.length, this.length + more));
    this.bytes.copy(bigger, 0, 0, this.length);
    this.bytes = bigger;
  }

  write(i: number, address: string): void {
    this.reserve(i, 3 * address.length);
    this.length += this.bytes.write(address, this.length);
  }

  /** The first n rows' addresses, in buffers of their exact size. */
  finish(n: number): { addressBytes: Buffer; addressStart: Uint32Array } {
    const addressStart = this.start.slice(0, n + 1);
    addressStart[n] = this.length;
    const addressBytes = Buffer.allocUnsafeSlow(this.length);
    this.bytes.copy(addressBytes, 0, 0, this.length);
    return { addressBytes, addressStart };
  }
}

/** Collects rows one at a time (none is kept) and returns the columns. */
export class DatasetBuilder {
  private n = 0;
  private readonly t: Record<DictField, Interner>;
  private readonly addresses: AddressColumn;
  private readonly port: Float64Array;
  private readonly playersOnline: Float64Array;
  private readonly lastPing: Float64Array;

  constructor(private readonly capacity: number) {
    this.t = Object.fromEntries(DICT_FIELDS.map((f) => [f, new Interner(capacity)])) as Record<DictField, Interner>;
    this.port = new Float64Array(capacity);
    this.playersOnline = new Float64Array(capacity);
    this.lastPing = new Float64Array(capacity);
    this.addresses = new AddressColumn(capacity);
  }

  /** Adds a row. */
  add(row: StoredServer): void {
    const i = this.n++;
    if (i >= this.capacity) throw new Error(`DatasetBuilder: more than ${this.capacity} rows`);
    this.addresses.write(i, row.address);
    this.port[i] = row.port;
    this.playersOnline[i] = row.players_online;
    this.lastPing[i] = Date.parse(row.last_ping);
    // Spelled out, not looped over DICT_FIELDS: a loop's `row[f]` is a slow keyed load on the hottest path.
    const t = this.t;
    t.version.ids[i] = t.version.id(row.version);
    t.offline_mode.ids[i] = t.offline_mode.id(row.offline_mode);
    t.players_limit.ids[i] = t.players_limit.id(row.players_limit);
    t.motd.ids[i] = t.motd.id(row.motd);
    t.motd_stripped.ids[i] = t.motd_stripped.id(row.motd_stripped);
    t.players.ids[i] = t.players.id(row.players);
    t.plugins.ids[i] = t.plugins.id(row.plugins);
    t.country.ids[i] = t.country.id(row.country);
    t.country_code.ids[i] = t.country_code.id(row.country_code);
    t.region.ids[i] = t.region.id(row.region);
    t.city.ids[i] = t.city.id(row.city);
    t.asn_number.ids[i] = t.asn_number.id(row.asn_number);
    t.asn_name.ids[i] = t.asn_name.id(row.asn_name);
    t.favicon.ids[i] = t.favicon.id(row.favicon);
    t.detected_mod_pack.ids[i] = t.detected_mod_pack.id(row.detected_mod_pack);
    t.detected_mod_pack_short.ids[i] = t.detected_mod_pack_short.id(row.detected_mod_pack_short);
  }

  finish(): Dataset {
    const n = this.n;
    return {
      size: n,
      ...this.addresses.finish(n),
      port: this.port.subarray(0, n),
      playersOnline: this.playersOnline.subarray(0, n),
      lastPing: this.lastPing.subarray(0, n),
      dict: Object.fromEntries(DICT_FIELDS.map((f) => [f, this.t[f].column(n)])) as Dataset['dict'],
    };
  }
}

/** The columns of these rows. */
export function datasetFromRows(rows: readonly StoredServer[]): Dataset {
  const b = new DatasetBuilder(rows.length);
  for (const r of rows) b.add(r);
  return b.finish();
}

export const isDataset = (x: unknown): x is Dataset => typeof x === 'object' && x !== null && 'addressBytes' in x;

/** Row i's address. */
export function addressAt(ds: Dataset, i: number): string {
  return ds.addressBytes.toString('utf8', ds.addressStart[i] as number, ds.addressStart[i + 1] as number);
}

/** The value of a dictionary field in row i. */
export function valueAt<F extends DictField>(ds: Dataset, field: F, i: number): StoredServer[F] {
  const col = ds.dict[field];
  return col.value(col.ids[i] as number) as StoredServer[F];
}

/** The fields kept as a number per row: `port`, `players_online`, and `last_ping` in ms (`time`). */
export function numbersOf(ds: Dataset, field: string): { numbers: Numbers; time: boolean } | undefined {
  if (field === 'port') return { numbers: ds.port, time: false };
  if (field === 'players_online') return { numbers: ds.playersOnline, time: false };
  return field === 'last_ping' ? { numbers: ds.lastPing, time: true } : undefined;
}

/**
 * Any other field as a dictionary column, built by reading every row once: the address
 * (nearly one value per row), the port, the players online, the last ping as ISO text.
 * A field the rows do not have is undefined in every row.
 */
export function internColumn(ds: Dataset, field: string): DictColumn {
  const at: (i: number) => unknown =
    field === 'address'
      ? (i) => addressAt(ds, i)
      : field === 'port'
        ? (i) => ds.port[i]
        : field === 'players_online'
          ? (i) => ds.playersOnline[i]
          : field === 'last_ping'
            ? (i) => new Date(ds.lastPing[i] as number).toISOString()
            : () => undefined;
  const interner = new Interner(ds.size);
  for (let i = 0; i < ds.size; i++) interner.ids[i] = interner.id(at(i));
  return interner.column(ds.size);
}

/** Row i as the object the rest of the mock knows (fields in spec order, favicon last). */
export function serverAt(ds: Dataset, i: number): StoredServer {
  const v = <F extends DictField>(f: F): StoredServer[F] => valueAt(ds, f, i);
  return {
    address: addressAt(ds, i),
    port: ds.port[i] as number,
    version: v('version'),
    offline_mode: v('offline_mode'),
    players_online: ds.playersOnline[i] as number,
    players_limit: v('players_limit'),
    motd: v('motd'),
    motd_stripped: v('motd_stripped'),
    players: v('players'),
    plugins: v('plugins'),
    country: v('country'),
    country_code: v('country_code'),
    region: v('region'),
    city: v('city'),
    asn_number: v('asn_number'),
    asn_name: v('asn_name'),
    last_ping: new Date(ds.lastPing[i] as number).toISOString(),
    favicon: v('favicon'),
    detected_mod_pack: v('detected_mod_pack'),
    detected_mod_pack_short: v('detected_mod_pack_short'),
  };
}

/** Every row as objects (small datasets: tests, exports). */
export function rowsOf(ds: Dataset): StoredServer[] {
  return Array.from({ length: ds.size }, (_, i) => serverAt(ds, i));
}
