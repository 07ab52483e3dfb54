// Builds a mock from its options without touching a socket: load the inputs (the spec
// model, the fixture credentials, the servers: generated from the seed, read from
// `--data`, or a snapshot of an earlier generation: mocks/dataset/snapshot.ts, one the
// build shipped or one in the cache directory), then hand them
// and the spec's handlers to createApp. Tests and other runtimes can instead build an
// app from inputs and handlers of their own.
import { servingFlags } from './serving-heap.ts';
import { loadFixtures } from '../../fixtures/load.ts';
import { loadModel, type SpecModel } from '../../spec/model.ts';
import { createApp, type MockApp } from '../core/app.ts';
import { loadDataset } from '../dataset/data-file.ts';
import { generateDataset, generatorFingerprint } from '../dataset/generator.ts';
import { createHandlers } from '../core/handlers/handlers.ts';
import type { MockOptions } from './options.ts';
import { sortOrders, sortRuleOf } from '../dataset/sort-orders.ts';
import { BUILT_DATASETS } from '../dataset/built.ts';
import { defaultCacheDir, readSnapshot, SNAPSHOT_ABOVE, writeSnapshot, type SnapshotKey } from '../dataset/snapshot.ts';
import { usageOf } from '../core/journal/usage.ts';
import { MockState, type MockInputs } from '../core/state.ts';

/**
 * How far loading is: reading a snapshot, generating servers (every PROGRESS_STEP rows),
 * sorting them, writing the snapshot. `ms` is the time since loading began.
 */
export type Progress =
  | { phase: 'snapshot-read'; file: string; ms: number }
  | { phase: 'snapshot-miss'; why: string; ms: number }
  | { phase: 'generate'; done: number; total: number; ms: number }
  | { phase: 'index'; total: number; ms: number }
  | { phase: 'snapshot-write'; file: string; ms: number }
  | { phase: 'snapshot-failed'; why: string; ms: number }
  | { phase: 'ready'; total: number; ms: number };

/** Below this many servers, loading takes well under a second: no progress is reported. */
export const PROGRESS_ABOVE = 100_000;

export function loadInputs(
  options: MockOptions,
  model: SpecModel = loadModel(options.spec),
  progress?: (p: Progress) => void,
): MockInputs {
  const fixtures = loadFixtures(options.fixtures, model);
  if (options.data)
    return {
      model,
      fixtures,
      servers: loadDataset(options.data, model.doc, { now: options.now ?? Date.now() }),
      source: { kind: 'file', path: options.data },
    };
  const t0 = performance.now();
  const total = options.servers;
  // The orders the spec declares: a snapshot's are taken where it holds them (by what they are), the rest sorted.
  const sortRule = sortRuleOf(model.byId.get('findServers'));
  const report =
    progress && total > PROGRESS_ABOVE
      ? (p: DistributiveOmit<Progress, 'ms'>) => progress({ ...p, ms: performance.now() - t0 } as Progress)
      : undefined;
  // Without --now, generated timestamps are relative to the start so the data looks fresh.
  const now = new Date(options.now ?? Date.now());
  const nowSec = Math.floor(now.getTime() / 1000) * 1000;
  const keyOf = (): SnapshotKey => ({
    generator: generatorFingerprint(),
    seed: options.seed,
    count: total,
    clean: options.cleanData,
  });
  // The datasets the build generated ahead (the default one; mocks/dataset/built.ts) are
  // part of the program, not of the cache: read whatever --cache-dir says.
  if (BUILT_DATASETS) {
    const built = readBuilt(BUILT_DATASETS.dir, keyOf(), nowSec);
    if ('dataset' in built) {
      const orders = sortOrders(built.dataset, sortRule, built.orders);
      return { model, fixtures, servers: built.dataset, orders, source: { kind: 'generated' } };
    }
  }
  const dir = options.cacheDir === undefined ? defaultCacheDir() : options.cacheDir;
  const key = dir && total > SNAPSHOT_ABOVE ? keyOf() : undefined;
  if (dir && key) {
    const snap = readSnapshot(dir, key, nowSec);
    if ('dataset' in snap) {
      report?.({ phase: 'snapshot-read', file: snap.file });
      return {
        model,
        fixtures,
        servers: snap.dataset,
        orders: sortOrders(snap.dataset, sortRule, snap.orders),
        source: { kind: 'generated', snapshot: { file: snap.file, hit: true } },
      };
    }
    report?.({ phase: 'snapshot-miss', why: snap.miss });
  }
  const dataset = generateDataset({
    seed: options.seed,
    count: total,
    now,
    clean: options.cleanData,
    ...(report ? { onProgress: (done: number) => report({ phase: 'generate', done, total }) } : {}),
  });
  report?.({ phase: 'index', total });
  const orders = sortOrders(dataset, sortRule);
  let snapshot: { file: string; hit: boolean } | undefined;
  if (dir && key) {
    try {
      const file = writeSnapshot(dir, key, dataset, orders, nowSec);
      snapshot = { file, hit: false };
      report?.({ phase: 'snapshot-write', file });
    } catch (err) {
      // A read-only or full disk costs the next start time, not this one its data.
      report?.({ phase: 'snapshot-failed', why: (err as Error).message });
    }
  }
  report?.({ phase: 'ready', total });
  return {
    model,
    fixtures,
    servers: dataset,
    orders,
    source: { kind: 'generated', ...(snapshot ? { snapshot } : {}) },
  };
}

/**
 * The dataset the build shipped, as last read in this process: a test file that makes a mock
 * per test, or resets by making another, decodes it once per clock. Its columns are never
 * written (each mock's caches and indexes are its own, mocks/search/search-index.ts).
 */
let lastBuilt: { id: string; read: ReturnType<typeof readSnapshot> } | undefined;
function readBuilt(dir: string, key: SnapshotKey, nowSec: number): ReturnType<typeof readSnapshot> {
  const id = `${dir}\n${JSON.stringify(key)}\n${nowSec}`;
  if (lastBuilt?.id !== id) lastBuilt = { id, read: readSnapshot(dir, key, nowSec) };
  return lastBuilt.read;
}

type DistributiveOmit<T, K extends keyof T> = T extends unknown ? Omit<T, K> : never;

/** The mock of these options: its inputs loaded, the spec's handlers; warnings to `warn` (console.warn by default). */
export function buildMock(
  options: MockOptions,
  inputs: MockInputs = loadInputs(options),
  warn?: (line: string) => void,
  quickStart = false,
): MockApp {
  const state = new MockState(inputs, options.now, options.rowCacheMiB * 2 ** 20, options.journal);
  if (options.consumer !== undefined) state.usage = usageOf(state, options.consumer);
  // The address the mock listens on is a host it answers (a name, with `--host mock.local`).
  const allowedHosts = [...options.allowedHosts, options.host];
  return createApp({
    options: { ...options, allowedHosts },
    state,
    handlers: createHandlers(inputs.model),
    ...(warn ? { warn } : {}),
    quickStart,
    v8Flags: servingFlags(),
  });
}
