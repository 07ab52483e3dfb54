// The reference server on a real socket (127.0.0.1, a free port), for what needs one:
// Dredd's replay, the CLI as a process, the Prism proxy, the pre-flight.
import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { createReferenceApp, type ReferenceOptions } from './app.ts';
import type { Defect } from './defects.ts';

export interface RunningServer {
  baseUrl: string;
  close(): Promise<void>;
}

/** Listens on 127.0.0.1 on a free port. */
export async function startReferenceServer(
  defects: Defect | Defect[] = 'none',
  options: ReferenceOptions = {},
): Promise<RunningServer> {
  const app = createReferenceApp(defects, options);
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
    s.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/api/v0.1`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
