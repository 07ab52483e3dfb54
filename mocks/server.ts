// The node:http adapter: binds the environment-neutral app to a socket.
import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import type { MockApp } from './app.ts';
import { buildMock } from './build.ts';
import { DEFAULT_OPTIONS, type MockOptions } from './options.ts';

export interface RunningMock {
  origin: string;
  baseUrl: string;
  mock: MockApp;
  close(): Promise<void>;
}

export async function startMock(overrides: Partial<MockOptions> = {}): Promise<RunningMock> {
  const options: MockOptions = { ...DEFAULT_OPTIONS, quiet: true, ...overrides };
  const mock = buildMock(options);
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve({ fetch: mock.app.fetch, port: options.port, hostname: options.host }, () => resolve(s));
    s.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  const origin = `http://${host}:${port}`;
  return {
    origin,
    baseUrl: origin + mock.basePath,
    mock,
    close: () =>
      new Promise<void>((resolve, reject) => {
        // Idle keep-alive sockets would hold close() open; end them.
        (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
