// An override's transport faults on a real socket (mocks/core/overrides/transport.ts), as a
// client meets them from a broken network or server: `reset` sends a TCP RST (the client
// reads ECONNRESET); `truncate` writes the answer's head with its whole Content-Length and
// half its body, then destroys the socket (the client reads a body cut short); `no-answer`
// writes nothing and keeps the connection until the client gives up or the mock stops (its
// stop ends every connection after the grace). Each then tells @hono/node-server that the
// answer is sent (RESPONSE_ALREADY_SENT, a Response of the runtime's own class, which it
// checks for that mark), so it writes nothing more.
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Transport } from '../core/overrides/transport.ts';

const sent = () => RESPONSE_ALREADY_SENT;

interface NodeEnv {
  incoming: IncomingMessage;
  outgoing: ServerResponse;
}

export const SOCKET_FAULTS: Transport = {
  reset(env) {
    const socket = (env as NodeEnv).incoming.socket as Socket & { resetAndDestroy?: () => Socket };
    socket.resetAndDestroy?.() ?? socket.destroy();
    return sent();
  },
  async truncate(env, answer) {
    const { outgoing } = env as NodeEnv;
    const body = Buffer.from(await answer.arrayBuffer());
    const headers: Record<string, string | string[]> = {};
    answer.headers.forEach((value, name) => {
      if (name !== 'set-cookie') headers[name] = value;
    });
    const cookies = answer.headers.getSetCookie();
    if (cookies.length) headers['set-cookie'] = cookies;
    headers['content-length'] = String(body.length);
    outgoing.writeHead(answer.status, headers);
    outgoing.write(body.subarray(0, Math.floor(body.length / 2)), () => outgoing.destroy());
    return sent();
  },
  hang(env) {
    const { outgoing } = env as NodeEnv;
    return new Promise((resolve) => outgoing.once('close', () => resolve(sent())));
  },
};
