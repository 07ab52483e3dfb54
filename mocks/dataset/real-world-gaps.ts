// The gaps real stored rows have (the spec's ServerCore and Server descriptions): no
// GeoIP record, no city, no ASN record, no MOTD, players listed without an id, plugin
// names stored joined with `;`. A UI built against complete rows crashes on these, so
// the generated listing carries them at these rates unless `--clean-data` is given.
//
// `decideGaps` draws which gaps a row has (a bit mask, from its own seeded stream);
// the generator (mocks/dataset/generator.ts) writes the row's columns with them, as
// each GAP entry below describes.
import type { Rng } from './rng.ts';

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
  /** the first 1 + (port % 3) sampled players have the uuid "NO-ID" (as the real worker stores them). */
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
  {
    gap: 'noIdPlayers',
    rate: 0.08,
    among: 'rows with a player sample',
    holds: 'one to three players with `uuid` `"NO-ID"`',
  },
  {
    gap: 'joinedPlugins',
    rate: 0.25,
    among: 'rows with two or more plugins',
    holds: 'one `plugins` entry holding every name joined with `;`',
  },
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

/**
 * Which gaps one row has, as a GAP bit mask, from facts of the complete row only: is it
 * behind TCPShield, how many players it samples, how many plugins it lists. Draws exactly
 * six numbers from `rng` whatever the row, so one row's gaps never shift another's.
 */
export function decideGaps(rng: Rng, tcpShield: boolean, players: number, plugins: number): number {
  const geo = rng();
  const city = rng();
  const asn = rng();
  const motd = rng();
  const sampled = rng();
  const listed = rng();
  let mask = 0;
  if (geo < P.noGeo) mask |= GAP.noGeo;
  else if (city < P.noCity) mask |= GAP.noCity;
  // A TCPShield row is recognised by its ASN organisation, which its ranges always have.
  if (!tcpShield && asn < P.noAsn) mask |= GAP.noAsn;
  if (motd < P.noMotd) mask |= GAP.noMotd;
  if (players > 0 && sampled < P.noIdPlayers) mask |= GAP.noIdPlayers;
  if (plugins > 1 && listed < P.joinedPlugins) mask |= GAP.joinedPlugins;
  return mask;
}

/** The rates as a table for mocks/README.md (between its gaps markers). */
export function gapRatesMarkdown(): string {
  const rows = GAP_RATES.map((r) => `| ${r.holds} | ${(r.rate * 100).toFixed(0)}% | ${r.among} |`);
  return ['| the row holds | rate | among |', '|---|---|---|', ...rows].join('\n');
}
