// Provenance levels from the spec's `x-provenance`, ordered from the hardest promise
// (interface) to the softest (assumed). `--provenance <level>` keeps every check whose
// provenance is that level or harder, so `interface` tests the hard promises alone.
export const LEVELS = ['interface', 'observed', 'assumed'] as const;
export type Provenance = (typeof LEVELS)[number];

export function isProvenance(value: unknown): value is Provenance {
  return typeof value === 'string' && (LEVELS as readonly string[]).includes(value);
}

/** A check is only as hard a promise as the softest spec part it relies on. */
export function weakest(...levels: (Provenance | undefined)[]): Provenance {
  let worst = 0;
  for (const level of levels) if (level) worst = Math.max(worst, LEVELS.indexOf(level));
  return LEVELS[worst] ?? 'assumed';
}

export function within(level: Provenance, selected: Provenance): boolean {
  return LEVELS.indexOf(level) <= LEVELS.indexOf(selected);
}

/** Reads `x-provenance` off any spec node; undefined when it carries none. */
export function provenanceOf(node: unknown): Provenance | undefined {
  const value = (node as Record<string, unknown> | null | undefined)?.['x-provenance'];
  return isProvenance(value) ? value : undefined;
}
