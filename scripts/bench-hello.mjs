// The start-up limit for `npm run bench`: a node:http process that answers `{}` with a
// 200 to anything, as soon as it listens. Plain JavaScript, no loader: what any Node
// server pays before its first answer (node itself, node:http, a socket).
//   node scripts/bench-hello.mjs PORT
import { createServer } from 'node:http';

createServer((_req, res) => {
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.end('{}');
}).listen(Number(process.argv[2]), '127.0.0.1');
