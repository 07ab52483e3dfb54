// Two mock builds (or flags) side by side at the same moment, for a cost of a few per cent:
// both processes pinned to one core, each loaded by its own connections for the same seconds
// from a client pinned to the other core. The scheduler gives the two busy processes the core
// in equal shares, so the ratio of their answers a second is the inverse ratio of their cost
// an answer, and whatever else the machine does in those seconds falls on both alike. Run in
// turn (scripts/bench-ab.mjs), two runs of the same build differ by up to 8% here; side by
// side, by about 1% (an A/A pair's median, its rounds' ratios 1.0-1.5% apart).
//   node scripts/bench-together.mjs [--rounds N] [--seconds S] [--json] \
//     'a=dist/mock.mjs [flags]' 'b=dist/mock.mjs [flags]'
// With --json it prints one object instead (per query: the median ratio a/b, its standard
// deviation, each round's ratio and each side's median answers a second): `npm run bench` reads it.
// With --targets FILE (a JSON array of request targets, such as the bench's mixed workload) a
// third measurement, `mixed`, sends each connection's next request to the next target in turn:
// a workload of distinct requests, which no cache of the mock's sees twice in a row.
// Needs Linux's `taskset` and two cores. The client is a few lines over raw sockets (not
// autocannon): autocannon costs more an answer than the mock, and on one core could not keep
// two mocks busy.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { benchArgs, QUERIES, startMock } from './bench-variants.mjs';

const CONNECTIONS = 50;

/**
 * The client: keeps CONNECTIONS requests in flight to each port and prints how many answers each
 * got. `path` is one target, or `@FILE`: a JSON array of targets, each request the next one.
 */
async function client(ports, path, seconds) {
  const counts = ports.map(() => 0);
  const targets = path.startsWith('@') ? JSON.parse(readFileSync(path.slice(1), 'utf8')) : [path];
  const request = (port, target) => Buffer.from(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`, 'latin1');
  let running = true;
  const sockets = [];
  ports.forEach((port, i) => {
    // One target: its bytes made once. A list: each port goes through it in order.
    const one = targets.length === 1 ? request(port, targets[0]) : undefined;
    let next = 0;
    const nextBytes = () => one ?? request(port, targets[next++ % targets.length]);
    for (let c = 0; c < CONNECTIONS; c++) {
      const socket = connect(port, '127.0.0.1');
      sockets.push(socket);
      let pending = Buffer.alloc(0);
      let bodyLeft = -1;
      socket.on('connect', () => socket.write(nextBytes()));
      socket.on('data', (chunk) => {
        pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
        for (;;) {
          if (bodyLeft < 0) {
            const end = pending.indexOf('\r\n\r\n');
            if (end === -1) return;
            const head = pending.subarray(0, end).toString('latin1');
            const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
            if (!length) {
              console.error(`bench-together: an answer without Content-Length from port ${port}:\n${head}`);
              process.exit(1);
            }
            bodyLeft = Number(length[1]);
            pending = pending.subarray(end + 4);
          }
          if (pending.length < bodyLeft) return;
          pending = pending.subarray(bodyLeft);
          bodyLeft = -1;
          counts[i]++;
          if (running) socket.write(nextBytes());
        }
      });
      socket.on('error', (err) => {
        if (!running) return;
        console.error(`bench-together: the mock on port ${port} failed a connection: ${err.message}`);
        process.exit(1);
      });
    }
  });
  await new Promise((r) => setTimeout(r, seconds * 1000));
  running = false;
  for (const s of sockets) s.destroy();
  process.stdout.write(JSON.stringify(counts.map((n) => n / seconds)));
}

if (process.argv[2] === '--client') {
  const [, , , ports, path, seconds] = process.argv;
  await client(ports.split(',').map(Number), path, Number(seconds));
  process.exit(0);
}

const json = process.argv.includes('--json');
const targetsAt = process.argv.indexOf('--targets');
const targetsFile = targetsAt === -1 ? undefined : process.argv[targetsAt + 1];
const { options, variants } = benchArgs(
  process.argv.filter((a, i) => a !== '--json' && (targetsAt === -1 || (i !== targetsAt && i !== targetsAt + 1))),
  { rounds: 8, seconds: 4 },
);
const queries = { ...QUERIES, ...(targetsFile ? { mixed: `@${targetsFile}` } : {}) };
const ROUNDS = options.rounds;
const SECONDS = options.seconds;
if (variants.length !== 2) throw new Error("give two variants: 'a=dist/mock.mjs [flags]' 'b=dist/mock.mjs [flags]'");
try {
  execFileSync('taskset', ['-c', '0', 'true']);
} catch {
  throw new Error('side by side needs Linux taskset (util-linux) and two cores');
}

const PORTS = [4610, 4611];
/** Answers a second at each of `ports`, in their order. */
const load = (ports, path, seconds) =>
  JSON.parse(
    execFileSync('taskset', [
      '-c',
      '0',
      process.execPath,
      new URL(import.meta.url).pathname,
      '--client',
      ports.join(','),
      path,
      String(seconds),
    ]).toString(),
  );

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const children = [];
const figures = {};
try {
  for (const [query, path] of Object.entries(queries)) {
    const ratios = [];
    const rates = [[], []];
    for (let r = 0; r < ROUNDS; r++) {
      // Each round starts both afresh and swaps their sides every other round: which one starts
      // first, which port it has, and whose connections the client opens and serves first. A
      // variant on the first side read about 1% faster than the same build on the second (an
      // A/A pair, 1.012-1.016, with the sides fixed).
      const order = r % 2 ? [1, 0] : [0, 1];
      for (const [side, i] of order.entries()) children[i] = await startMock(variants[i], PORTS[side], 1);
      load(PORTS, path, 1);
      const bySide = load(PORTS, path, SECONDS);
      const [a, b] = order[0] === 0 ? bySide : [bySide[1], bySide[0]];
      for (const child of children) {
        child.kill('SIGTERM');
        await new Promise((resolve) => child.on('exit', resolve));
      }
      children.length = 0;
      rates[0].push(a);
      rates[1].push(b);
      ratios.push(a / b);
    }
    const mean = ratios.reduce((s, x) => s + x, 0) / ROUNDS;
    const sd = ROUNDS > 1 ? Math.sqrt(ratios.reduce((s, x) => s + (x - mean) ** 2, 0) / (ROUNDS - 1)) : null;
    const f = { ratio: median(ratios), sd, ratios, answersPerSecond: rates.map(median) };
    figures[query] = f;
    if (json) continue;
    console.log(
      `${query}: ${variants[0].name} ${Math.round(f.answersPerSecond[0])}, ${variants[1].name} ` +
        `${Math.round(f.answersPerSecond[1])} answers/s side by side (medians of ${ROUNDS})`,
    );
    console.log(
      `  ${variants[0].name}/${variants[1].name}: ${f.ratio.toFixed(3)} (median of the rounds' ratios; ` +
        `standard deviation ${sd === null ? 'n/a, one round' : sd.toFixed(3)})`,
    );
    console.log(`  ratios: ${JSON.stringify(ratios.map((x) => Number(x.toFixed(3))))}`);
  }
  if (json) console.log(JSON.stringify(figures));
} finally {
  for (const child of children) child?.kill('SIGTERM');
}
