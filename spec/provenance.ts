// Where each part of the spec comes from (`x-provenance`), ordered from the hardest
// promise to the softest: `interface` (the interface document promises it), `observed`
// (seen in the production service), `assumed` (this project's choice). A check, or a
// reading of the spec, is only as hard a promise as the softest part it relies on.
export const LEVELS = ['interface', 'observed', 'assumed'] as const;
export type Provenance = (typeof LEVELS)[number];

export function isProvenance(value: unknown): value is Provenance {
  return typeof value === 'string' && (LEVELS as readonly string[]).includes(value);
}

/** The softest of the given levels; undefined entries (parts without a level) are ignored. */
export function weakest(...levels: (Provenance | undefined)[]): Provenance {
  let worst = 0;
  for (const level of levels) if (level) worst = Math.max(worst, LEVELS.indexOf(level));
  return LEVELS[worst] ?? 'assumed';
}

/**
 * The hardest of the given levels, undefined when none is given: what a
 * verdict covering parts of several levels is filed under.
 */
export function firmest(...levels: (Provenance | undefined)[]): Provenance | undefined {
  let best: number | undefined;
  for (const level of levels) if (level) best = Math.min(best ?? LEVELS.length, LEVELS.indexOf(level));
  return best === undefined ? undefined : LEVELS[best];
}

/** True when `level` is `selected` or a harder promise. */
export function within(level: Provenance, selected: Provenance): boolean {
  return LEVELS.indexOf(level) <= LEVELS.indexOf(selected);
}

/** Reads `x-provenance` off any spec node; undefined when it carries none. */
export function provenanceOf(node: unknown): Provenance | undefined {
  const value = (node as Record<string, unknown> | null | undefined)?.['x-provenance'];
  return isProvenance(value) ? value : undefined;
}
