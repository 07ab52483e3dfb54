// The mock in a process of its own, over a real socket, where sharing one event loop
// with the client would hide what a user meets (mocks/node/server.test.ts tests the
// socket handling in process).
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { expect, it } from 'vitest';

it('a client that sends a big body in full reads the 413, not a reset', async () => {
  // Closing at once made about half of these fail with EPIPE or ECONNRESET. The mock
  // runs in a process of its own: sharing one event loop with the client hides the race.
  const child = spawn(process.execPath, ['--import', 'tsx', new URL('../mocks/node/cli.ts', import.meta.url).pathname, '--port', '0', '--quiet', '--servers', '10']);
  const baseUrl = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const url = /Mock listening on (\S+)/.exec(out)?.[1];
      if (url) resolve(url);
    });
    child.once('exit', (code) => reject(new Error(`the mock exited (${code})`)));
  });
  const body = Buffer.alloc(4 * 2 ** 20, 'x');
  try {
    for (let i = 0; i < 10; i++) {
      const outcome = await new Promise<string>((resolve) => {
        const url = new URL(`${baseUrl}/user/apikeys`);
        const req = request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { 'Content-Type': 'application/json', 'Content-Length': body.length } }, (res) => {
          res.resume();
          res.on('end', () => resolve(`${res.statusCode} ${res.headers.connection}`));
        });
        req.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
        req.end(body);
      });
      expect(outcome).toBe('413 close');
    }
  } finally {
    child.kill('SIGKILL');
  }
});

