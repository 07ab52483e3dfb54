// The gaps real stored rows have (the spec's ServerCore and Server descriptions): no
// GeoIP record, no city, no ASN record, no MOTD, players listed without an id, plugin
// names stored joined with `;`. A UI built against complete rows crashes on these, so
// the generated listing carries them at these rates unless `--clean-data` is given.
//
// Two steps, kept apart so a columnar dataset can store the decision as one byte per
// row: `decideGaps` draws which gaps a row has (a bit mask, from its own seeded
// stream), `applyGaps` turns a complete row into the row with those gaps.
import type { Player } from '../../spec/openapi.gen.ts';
import type { Rng } from './rng.ts';
import type { StoredServer } from './server-row.ts';

/** One bit per kind of gap. */
export const GAP = {
  /** country, country_code, region and city null. */
  noGeo: 1,
  /** city null (the geo record has no city). */
  noCity: 2,
  /** asn_number and asn_name null. */
  noAsn: 4,
  /** motd and motd_stripped null. */
  noMotd: 8,
  /** some sampled players have the uuid "NO-ID". */
  noIdPlayers: 16,
  /** the plugin names are one `;`-joined entry. */
  joinedPlugins: 32,
} as const;

export type GapName = keyof typeof GAP;

export interface GapRate {
  gap: GapName;
  /** Probability, among the rows it can apply to. */
  rate: number;
  /** Which rows it can apply to, for people. */
  among: string;
  /** What the row then holds, for people. */
  holds: string;
}

/**
 * The rates: "a few percent" of addresses have no GeoIP record, "most rows" no city,
 * per the spec's descriptions; the exact numbers are this project's choice.
 */
export const GAP_RATES: readonly GapRate[] = [
  { gap: 'noGeo', rate: 0.03, among: 'every row', holds: '`country`, `country_code`, `region` and `city` null' },
  { gap: 'noCity', rate: 0.7, among: 'rows with a GeoIP record', holds: '`city` null' },
  { gap: 'noAsn', rate: 0.02, among: 'rows not behind TCPShield', holds: '`asn_number` and `asn_name` null' },
  { gap: 'noMotd', rate: 0.03, among: 'every row', holds: '`motd` and `motd_stripped` null' },
  { gap: 'noIdPlayers', rate: 0.08, among: 'rows with a player sample', holds: 'one to three players with `uuid` `"NO-ID"`' },
  { gap: 'joinedPlugins', rate: 0.25, among: 'rows with two or more plugins', holds: 'one `plugins` entry holding every name joined with `;`' },
];

const rateOf = (gap: GapName): number => GAP_RATES.find((r) => r.gap === gap)!.rate;
const P = {
  noGeo: rateOf('noGeo'),
  noCity: rateOf('noCity'),
  noAsn: rateOf('noAsn'),
  noMotd: rateOf('noMotd'),
  noIdPlayers: rateOf('noIdPlayers'),
  joinedPlugins: rateOf('joinedPlugins'),
};

/** What decideGaps may look at: only facts of the complete row. */
export interface RowFacts {
  tcpShield: boolean;
  players: number;
  plugins: number;
}

/**
 * Which gaps one row has, as a GAP bit mask. Draws exactly six numbers from `rng`
 * whatever the row, so one row's gaps never shift another's.
 */
export function decideGaps(rng: Rng, row: RowFacts): number {
  const geo = rng();
  const city = rng();
  const asn = rng();
  const motd = rng();
  const players = rng();
  const plugins = rng();
  let mask = 0;
  if (geo < P.noGeo) mask |= GAP.noGeo;
  else if (city < P.noCity) mask |= GAP.noCity;
  // A TCPShield row is recognised by its ASN organisation, which its ranges always have.
  if (!row.tcpShield && asn < P.noAsn) mask |= GAP.noAsn;
  if (motd < P.noMotd) mask |= GAP.noMotd;
  if (row.players > 0 && players < P.noIdPlayers) mask |= GAP.noIdPlayers;
  if (row.plugins > 1 && plugins < P.joinedPlugins) mask |= GAP.joinedPlugins;
  return mask;
}

// Joined plugin lists are shared like the sets they come from.
const joined = new WeakMap<readonly string[], readonly string[]>();

/**
 * The row with the gaps of `mask`; the row itself when there are none. `inPlace`: the
 * caller's fresh row is changed instead of copied (the generator's rows, a million of them).
 */
export function applyGaps(row: StoredServer, mask: number, inPlace = false): StoredServer {
  if (mask === 0) return row;
  const out: StoredServer = inPlace ? row : { ...row };
  if (mask & GAP.noGeo) {
    out.country = null;
    out.country_code = null;
    out.region = null;
    out.city = null;
  }
  if (mask & GAP.noCity) out.city = null;
  if (mask & GAP.noAsn) {
    out.asn_number = null;
    out.asn_name = null;
  }
  if (mask & GAP.noMotd) {
    out.motd = null;
    out.motd_stripped = null;
  }
  if (mask & GAP.noIdPlayers) {
    // The first one to three sampled players lost their id, as the real worker stores them.
    const n = 1 + (row.port % 3);
    out.players = row.players.map((p, k): Player => (k < n ? { uuid: 'NO-ID', name: p.name } : p));
  }
  if (mask & GAP.joinedPlugins) {
    let j = joined.get(row.plugins);
    if (!j) joined.set(row.plugins, (j = Object.freeze([row.plugins.join(';')])));
    out.plugins = j as string[];
  }
  return out;
}

/** The rates as a table for mocks/README.md (between its gaps markers). */
export function gapRatesMarkdown(): string {
  const rows = GAP_RATES.map((r) => `| ${r.holds} | ${(r.rate * 100).toFixed(0)}% | ${r.among} |`);
  return ['| the row holds | rate | among |', '|---|---|---|', ...rows].join('\n');
}
