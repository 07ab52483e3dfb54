// What the side-by-side benchmarks share (bench-ab.mjs runs variants in turn,
// bench-together.mjs two at the same moment): their command line, the two queries, and how a
// variant's mock is started.
import { spawn } from 'node:child_process';

/** The plain and the filtered query of the benchmark. */
export const QUERIES = {
  plain: '/api/v0.1/servers/find?limit=20',
  filtered: '/api/v0.1/servers/find?version=1.20*&minUsers=5&sort=users',
};

/**
 * `[--NAME N]... 'name=path/to/mock.mjs [flags]'...`: the numeric options (each of `defaults`,
 * by its name without dashes) and the variants.
 */
export function benchArgs(argv, defaults) {
  const args = argv.slice(2);
  const options = {};
  for (const [name, fallback] of Object.entries(defaults)) {
    const at = args.indexOf(`--${name}`);
    options[name] = at === -1 ? fallback : Number(args.splice(at, 2)[1]);
  }
  const variants = args.map((a) => {
    const [name, rest] = a.split(/=(.*)/s);
    return { name, cmd: (rest ?? '').split(' ').filter(Boolean) };
  });
  return { options, variants };
}

/** A variant's mock on `port` (every variant's with the same data and clock), once it listens; `pin`: its core. */
export function startMock(variant, port, pin) {
  const argv = [
    '--max-semi-space-size=4',
    ...variant.cmd,
    ...['--seed', '42', '--servers', '1000', '--now', '2026-06-01T12:00:00.000Z', '--quiet', '--port', String(port)],
  ];
  const child =
    pin === undefined
      ? spawn(process.execPath, argv, { stdio: ['ignore', 'pipe', 'inherit'] })
      : spawn('taskset', ['-c', String(pin), process.execPath, ...argv], { stdio: ['ignore', 'pipe', 'inherit'] });
  // A variant that cannot start (a mistyped path, a bad flag) fails the bench: it is never waited for.
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => String(d).includes('listening') && resolve(child));
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      reject(
        new Error(`the mock of variant '${variant.name}' exited (${signal ?? `code ${code}`}) before it listened`),
      ),
    );
  });
}
