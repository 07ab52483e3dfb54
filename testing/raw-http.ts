// A bare HTTP/1.1 client over a TCP socket, for tests that must send what real
// clients' libraries refuse to (a lowercase method, a bad Host, broken chunking) and
// watch the connection itself (is it closed? can it carry the next request?).
import { connect, type Socket } from 'node:net';

export interface RawResponse {
  status: number;
  /** Header names lower-cased. */
  headers: Record<string, string>;
  body: string;
}

export interface RawConnection {
  socket: Socket;
  write(data: string | Buffer): void;
  /** The next complete response (Content-Length framed), or an error if the connection closes first. */
  response(): Promise<RawResponse>;
  /** Resolves when the server has closed the connection. */
  closed: Promise<void>;
  destroy(): void;
}

export function rawConnection(port: number, host = '127.0.0.1', localAddress?: string): Promise<RawConnection> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host, ...(localAddress ? { localAddress } : {}) });
    let buffer = Buffer.alloc(0);
    let ended = false;
    let wake: () => void = () => {};
    socket.on('data', (d: Buffer) => {
      buffer = Buffer.concat([buffer, d]);
      wake();
    });
    const closed = new Promise<void>((done) =>
      socket.on('close', () => {
        ended = true;
        wake();
        done();
      }),
    );
    socket.on('error', () => {});
    const parse = (): RawResponse | undefined => {
      const end = buffer.indexOf('\r\n\r\n');
      if (end === -1) return undefined;
      const [statusLine, ...lines] = buffer.subarray(0, end).toString('latin1').split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      const length = Number(headers['content-length'] ?? 0);
      if (buffer.length < end + 4 + length) return undefined;
      const body = buffer.subarray(end + 4, end + 4 + length).toString('utf8');
      buffer = buffer.subarray(end + 4 + length);
      return { status: Number(statusLine!.split(' ')[1]), headers, body };
    };
    const response = () =>
      new Promise<RawResponse>((done, fail) => {
        const attempt = () => {
          const r = parse();
          if (r) done(r);
          else if (ended)
            fail(
              new Error(
                `connection closed before a complete response; got ` +
                  `${JSON.stringify(buffer.toString('latin1').slice(0, 300))}`,
              ),
            );
          else wake = attempt;
        };
        attempt();
      });
    socket.once('connect', () =>
      resolve({ socket, write: (data) => socket.write(data), response, closed, destroy: () => socket.destroy() }),
    );
    socket.once('error', reject);
  });
}
