// Builds a mock from its options without touching a socket: load the inputs (the spec
// model, the fixture credentials, the servers: generated from the seed or read from
// `--data`), then hand them and the spec's handlers to createApp. Tests and other
// runtimes can instead build an app from inputs and handlers of their own.
import { loadFixtures } from '../fixtures/load.ts';
import { loadModel, type SpecModel } from '../spec/model.ts';
import { createApp, type MockApp } from './app.ts';
import { loadDataset } from './data-file.ts';
import { generateServers } from './generator.ts';
import { createHandlers } from './handlers.ts';
import type { MockOptions } from './options.ts';
import { MockState, type MockInputs } from './state.ts';

/** How far loading is: generating servers (every PROGRESS_STEP rows), then indexing them. */
export type Progress = { phase: 'generate'; done: number; total: number } | { phase: 'index'; total: number };

/** Below this many servers, loading takes well under a second: no progress is reported. */
export const PROGRESS_ABOVE = 100_000;

export function loadInputs(options: MockOptions, model: SpecModel = loadModel(options.spec), progress?: (p: Progress) => void): MockInputs {
  // Without --now, generated timestamps are relative to the start so the data looks fresh.
  const now = new Date(options.now ?? Date.now());
  const total = options.servers;
  const report = progress && !options.data && total > PROGRESS_ABOVE ? progress : undefined;
  const servers = options.data
    ? loadDataset(options.data, model.doc)
    : generateServers({ seed: options.seed, count: total, now, clean: options.cleanData, ...(report ? { onProgress: (done: number) => report({ phase: 'generate', done, total }) } : {}) });
  const inputs = { model, fixtures: loadFixtures(options.fixtures, model), servers };
  // The index is built next, by the MockState (sorting for every sort key): say so.
  report?.({ phase: 'index', total });
  return inputs;
}

/** The mock of these options: its inputs loaded, the spec's handlers; warnings to `warn` (console.warn by default). */
export function buildMock(options: MockOptions, inputs: MockInputs = loadInputs(options), warn?: (line: string) => void): MockApp {
  const state = new MockState(inputs, options.now, options.rowCacheMiB * 2 ** 20);
  return createApp({ options, state, handlers: createHandlers(inputs.model.limits), ...(warn ? { warn } : {}) });
}
