// The validation proxy's limit for `npm run bench`: a forwarder that does only what a
// plain reverse proxy cannot avoid, on the same stacks as ours (node:http toward the
// client, undici's pool toward the upstream): the request sent on with the client's
// headers (all but Host, which is the upstream's, and the connection's own), the answer's
// status, headers and bytes sent back. No copy of the bytes, no judge. What the machine
// allows a proxy in front of the mock, as the bare node:http server is for the mock.
//   node scripts/bench-forwarder.mjs UPSTREAM_ORIGIN PORT
import { createServer } from 'node:http';
import { Pool } from 'undici';

const pool = new Pool(process.argv[2], { connections: 128, pipelining: 1, headersTimeout: 0, bodyTimeout: 0 });
/** The connection's own fields, and Host (undici sends the upstream's). */
const NOT_SENT = /^(connection|keep-alive|host|transfer-encoding|upgrade)$/i;

createServer((req, res) => {
  const raw = req.rawHeaders;
  const headers = [];
  for (let i = 0; i < raw.length; i += 2) if (!NOT_SENT.test(raw[i])) headers.push(raw[i], raw[i + 1]);
  pool.dispatch(
    { method: req.method, path: req.url, headers },
    {
      onConnect() {},
      onHeaders(status, raw, _resume, statusText) {
        const headers = [];
        for (let i = 0; i < raw.length; i += 2) {
          const name = raw[i].toString('latin1');
          if (!/^(connection|keep-alive)$/i.test(name)) headers.push(name, raw[i + 1].toString('latin1'));
        }
        res.sendDate = false;
        res.writeHead(status, statusText, headers);
        return true;
      },
      onData: (chunk) => res.write(chunk),
      onComplete: () => res.end(),
      onError: () => res.destroy(),
    },
  );
}).listen(Number(process.argv[3]), '127.0.0.1');
