// `tsx scripts/bench-proxy.ts [--proxy FILE]... [--rounds N]`: the benchmark's proxy pair
// alone (`npm run bench`'s "Validation proxy", measureProxy): the plain query against the
// mock direct, through the validation proxy, and through a forwarder that only forwards
// (scripts/bench-forwarder.mjs), back to back on the same mock with the same load. With
// several --proxy bundles (this checkout's dist/proxy.mjs and an earlier build's), each
// round measures every one of them in turn, so an A/B comparison shares the machine's
// moods. Prints each round's req/s and the medians of proxy/direct and proxy/forwarder,
// and the CPU each process spent per answer (from /proc: user + system time over the
// measured run), which a busy machine changes far less than it changes req/s: the
// proxy's share of the forwarder's throughput, where both are what limits it, is the
// inverse ratio of their CPU per answer.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { programFlags, type FlagTable } from '../cli/flags.ts';
import type { LoadResult } from './bench-child.ts';
import { API_PREFIX, inChild, launch, type Running, startServer } from './bench-servers.ts';

const FLAGS = {
  proxy: { type: 'list', value: 'FILE', help: "a proxy bundle to measure (default: this checkout's dist/proxy.mjs)" },
  rounds: { type: 'integer', value: 'N', default: 3, min: 1, max: 50, help: 'rounds of every measurement' },
  duration: { type: 'integer', value: 'S', default: 10, min: 1, max: 600, help: 'seconds of load per measurement' },
  warmup: { type: 'integer', value: 'S', default: 3, min: 0, max: 600, help: 'seconds of warm-up before each' },
  help: { type: 'boolean', short: 'h', help: 'show this help' },
} as const satisfies FlagTable;

const opts = programFlags('bench-proxy', 'tsx scripts/bench-proxy.ts [options]', FLAGS);
const proxies = opts.proxy?.length ? opts.proxy : ['dist/proxy.mjs'];
const log = (line: string) => console.error(`bench-proxy: ${line}`);

/** CPU time a process has spent so far (user + system), in ms. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // utime and stime are fields 14 and 15 of stat (11 and 12 after the command), in clock ticks of 10 ms.
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const measure = async (srv: Running): Promise<LoadResult & { cpuUsPerAnswer: number }> => {
  const job = {
    kind: 'load' as const,
    base: srv.base,
    paths: ['/servers/find?limit=20'],
    headers: {},
    connections: 50,
  };
  if (opts.warmup) await inChild<LoadResult>({ ...job, durationSec: opts.warmup });
  const before = cpuMs(srv.pid);
  const r = await inChild<LoadResult>({ ...job, durationSec: opts.duration });
  return { ...r, cpuUsPerAnswer: ((cpuMs(srv.pid) - before) * 1000) / Math.max(1, r.totalRequests) };
};

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

async function main(): Promise<void> {
  if (!opts.proxy?.length) execFileSync('npm', ['run', 'build:proxy', '--silent'], { stdio: 'inherit' });
  const mock = await startServer({ kind: 'mock', seed: 42, servers: 1000, now: '2026-06-01T12:00:00.000Z' });
  const ratios = new Map<string, { direct: number[]; forwarder: number[]; cpu: number[] }>(
    proxies.map((p) => [p, { direct: [], forwarder: [], cpu: [] }]),
  );
  try {
    for (let round = 1; round <= opts.rounds; round++) {
      const direct = await measure(mock);
      const bare = await launch({
        label: 'bare forwarder',
        command: process.execPath,
        args: (p) => ['scripts/bench-forwarder.mjs', new URL(mock.base).origin, String(p)],
        prefix: API_PREFIX,
      });
      let forwarder: LoadResult & { cpuUsPerAnswer: number };
      try {
        forwarder = await measure(bare);
      } finally {
        await bare.stop();
      }
      const line = [
        `round ${round}: direct ${direct.reqPerSec.toFixed(0)}, forwarder ${forwarder.reqPerSec.toFixed(0)} ` +
          `(${forwarder.cpuUsPerAnswer.toFixed(0)} µs CPU an answer)`,
      ];
      for (const file of proxies) {
        const reports = mkdtempSync(join(tmpdir(), 'bench-proxy-'));
        const proxy = await launch({
          label: file,
          command: process.execPath,
          args: (p) => [file, '--upstream', mock.base, '--port', String(p), '--reports', reports],
          prefix: API_PREFIX,
        });
        try {
          const r = await measure(proxy);
          const bad = Object.entries(r.statusCodes).filter(([s]) => s !== '200');
          if (bad.length) log(`${file}: statuses ${JSON.stringify(r.statusCodes)}`);
          ratios.get(file)!.direct.push(r.reqPerSec / direct.reqPerSec);
          ratios.get(file)!.forwarder.push(r.reqPerSec / forwarder.reqPerSec);
          ratios.get(file)!.cpu.push(forwarder.cpuUsPerAnswer / r.cpuUsPerAnswer);
          line.push(
            `${file} ${r.reqPerSec.toFixed(0)} (${(r.reqPerSec / forwarder.reqPerSec).toFixed(2)} of the forwarder; ` +
              `${r.cpuUsPerAnswer.toFixed(0)} µs CPU an answer)`,
          );
        } finally {
          await proxy.stop();
          rmSync(reports, { recursive: true, force: true });
        }
      }
      log(line.join(', '));
    }
  } finally {
    await mock.stop();
  }
  for (const [file, r] of ratios) {
    console.log(
      `${file}: median ${median(r.direct).toFixed(2)} of direct, ${median(r.forwarder).toFixed(2)} of the forwarder ` +
        `(rounds: ${r.forwarder.map((x) => x.toFixed(2)).join(', ')}); the forwarder's CPU an answer over its: ` +
        `median ${median(r.cpu).toFixed(2)} (rounds: ${r.cpu.map((x) => x.toFixed(2)).join(', ')})`,
    );
  }
}

void main();
