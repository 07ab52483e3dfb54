// The node:http adapter: binds the environment-neutral app to a socket. The app behind
// the socket can be swapped (watch mode reloads the spec, data and fixtures without
// giving up the port).
import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import type { MockApp } from './app.ts';
import { buildMock, loadInputs, type Progress } from './build.ts';
import { listenOrigins } from './listen-urls.ts';
import { DEFAULT_OPTIONS, type MockOptions } from './options.ts';

export interface RunningMock {
  /** The first URL a browser can open (loopback first for a wildcard bind). */
  origin: string;
  /** Every URL that reaches the mock (the machine's addresses for `--host 0.0.0.0`). */
  origins: string[];
  baseUrl: string;
  /** The app answering now. */
  readonly mock: MockApp;
  /** Answers every later request with `next`; requests in flight finish on the old app. */
  swap(next: MockApp): void;
  close(): Promise<void>;
}

export interface StartHooks {
  /** Progress of loading a big dataset (see loadInputs). */
  progress?: (p: Progress) => void;
}

export async function startMock(overrides: Partial<MockOptions> = {}, hooks: StartHooks = {}): Promise<RunningMock> {
  const options: MockOptions = { ...DEFAULT_OPTIONS, quiet: true, ...overrides };
  let current = buildMock(options, loadInputs(options, undefined, hooks.progress));
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve({ fetch: (req, env) => current.app.fetch(req, env), port: options.port, hostname: options.host }, () => resolve(s));
    s.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  const origins = listenOrigins(options.host, port);
  const origin = origins[0]!;
  return {
    origin,
    origins,
    baseUrl: origin + current.basePath,
    get mock() {
      return current;
    },
    swap(next) {
      current = next;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        // Idle keep-alive sockets would hold close() open; end them.
        (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
