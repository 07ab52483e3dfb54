// The mock in a process of its own, over a real socket, where sharing one event loop
// with the client would hide what a user meets (mocks/node/server.test.ts tests the
// socket handling in process).
import { request } from 'node:http';
import { expect, it } from 'vitest';
import { startMockProgram, stopMockPrograms } from './mock-program.ts';

it('a client that sends a big body in full reads the 413, not a reset', async () => {
  // Closing at once made about half of these fail with EPIPE or ECONNRESET. The mock
  // runs in a process of its own: sharing one event loop with the client hides the race.
  const baseUrl = await startMockProgram(['--servers', '10']);
  const body = Buffer.alloc(4 * 2 ** 20, 'x');
  try {
    for (let i = 0; i < 10; i++) {
      const outcome = await new Promise<string>((resolve) => {
        const url = new URL(`${baseUrl}/user/apikeys`);
        const req = request(
          {
            host: url.hostname,
            port: url.port,
            path: url.pathname,
            method: 'POST',
            headers: { 'Content-Type': 'application/json', 'Content-Length': body.length },
          },
          (res) => {
            res.resume();
            res.on('end', () => resolve(`${res.statusCode} ${res.headers.connection}`));
          },
        );
        req.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
        req.end(body);
      });
      expect(outcome).toBe('413 close');
    }
  } finally {
    stopMockPrograms();
  }
});
