// The fixed instant every test pins its clocks to, in one place, so that no test keeps a
// clock of its own and the pinned answers, the generated rows and the rate-limit windows
// of every test are read at the same moment. Test support: production code never imports
// it (scripts/layers.ts).

/** The pinned instant as text: what `--now` and createMock's `now` take, and answers write. */
export const NOW_ISO = '2026-06-01T12:00:00.000Z';

/**
 * The pinned instant in ms since the epoch: what the mock's clock, its stores and its
 * generator read (`new Date(NOW)` where a Date is wanted). A minute boundary, where a
 * rate-limit window starts.
 */
export const NOW = Date.parse(NOW_ISO);
