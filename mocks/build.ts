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

export function loadInputs(options: MockOptions, model: SpecModel = loadModel()): MockInputs {
  // Without --now, generated timestamps are relative to the start so the data looks fresh.
  const now = new Date(options.now ?? Date.now());
  return {
    model,
    fixtures: loadFixtures(options.fixtures, model),
    servers: options.data ? loadDataset(options.data) : generateServers({ seed: options.seed, count: options.servers, now }),
  };
}

/** The mock of these options: its inputs loaded, the spec's handlers. */
export function buildMock(options: MockOptions, inputs: MockInputs = loadInputs(options)): MockApp {
  const state = new MockState(inputs, options.now, options.rowCacheMiB * 2 ** 20);
  return createApp({ options, state, handlers: createHandlers(inputs.model.limits) });
}
