// `server-listing-proxy --upstream <url>` (`npm run proxy --` in a clone): the flags, the
// proxy (proxy.ts), then on Ctrl-C or SIGTERM (or when the process that started it ends,
// as when a CI script kills `npx`): stop accepting, finish the requests in flight, judge
// what is left, write `--record`'s dataset and the reports, print the summary.
// Exit 0: no violation at --provenance; 1: a violation; 2: nothing was judged, or it
// could not start (bad flags, the port in use); 130: a second Ctrl-C.
import { FlagError } from '../../cli/flags.ts';
import { ownPackage } from '../../cli/own-package.ts';
import { redact } from '../kit/mask.ts';
import { resolve } from 'node:path';
import { clearReports, reportPaths, writeAtomically, writeReports } from '../reports/files.ts';
import { summary, verdictLine } from '../reports/outcome.ts';
import { parseOptions, USAGE, type ProxyCliOptions } from './options.ts';
import { MAX_SERVERS } from './dataset-recorder.ts';
import { startProxy, type RunningProxy } from './proxy.ts';

/** The same Ctrl-C arrives twice (the terminal's and npm's copy) within this; a person's second press takes longer. */
const SAME_PRESS_MS = 250;
const STARTED_BY = process.ppid;

async function main(argv: string[]): Promise<void> {
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});
  let opts: ProxyCliOptions;
  try {
    opts = parseOptions(argv);
  } catch (err) {
    if (!(err instanceof FlagError)) throw err;
    console.error(`proxy: ${err.message}\n\n${USAGE}`);
    return process.exit(2);
  }
  if (opts.help) return void console.log(USAGE);
  if (opts.version) return void console.log(ownPackage().version);
  const reports = reportPaths({ reports: opts.reports }, process.cwd(), 'proxy');
  // A gate must never read the last run's reports as this one's.
  clearReports(reports);
  let proxy: RunningProxy;
  try {
    proxy = await startProxy({
      upstream: opts.upstream,
      port: opts.port,
      host: opts.host,
      provenance: opts.provenance,
      record: Boolean(opts.record),
      maxBodyBytes: opts.maxBody,
      log: (line) => console.log(line),
    });
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    console.error(
      `proxy: cannot start: ${e.code === 'EADDRINUSE' ? `port ${opts.port} on ${opts.host} is in use (try --port 0 or another port)` : e.message}`,
    );
    return process.exit(2);
  }
  console.log(
    [
      `Validation proxy on ${proxy.baseUrl} -> ${opts.upstream}`,
      `  judging every answer against spec/openapi.yaml${opts.provenance === 'assumed' ? '' : ` at ${opts.provenance} and harder`}; each new violation is logged once below`,
      `  the report so far: ${proxy.origin}/__proxy/report${opts.record ? `; recording the public answers to ${resolve(opts.record)} (written on exit)` : ''}`,
      '  Ctrl-C writes the reports and exits (1 if a violation was seen)',
    ].join('\n'),
  );

  let stopping = false;
  const stop = async (why: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\nproxy: ${why}, stopping (finishing requests in flight, at most 5 s)`);
    await proxy.close();
    if (opts.record) {
      const rec = proxy.recording()!;
      writeAtomically(resolve(opts.record), rec.text);
      console.log(
        `Recorded ${rec.servers} servers from ${rec.requests} answers to ${resolve(opts.record)}${rec.marked ? ` (${rec.marked} marked: they break the spec)` : ''}${rec.approximate ? `; ${rec.approximate} with a time read from relative text` : ''}${rec.withCredential ? `; ${rec.withCredential} left out: they held a credential` : ''}${rec.overCap ? `; ${rec.overCap} more servers seen past the cap of ${MAX_SERVERS.toLocaleString('en-US')}, not recorded` : ''}`,
      );
    }
    let outcome = proxy.outcome();
    if (outcome.exitCode === 0 && outcome.reports.every((r) => r.results.every((x) => x.status === 'skip'))) {
      outcome = { ...outcome, exitCode: 2, refusal: 'nothing was judged: no answer of the API came through the proxy' };
    }
    const files = writeReports(outcome, reports, 'proxy');
    if (outcome.exitCode === 2) console.error(`proxy: ${verdictLine(outcome)}`);
    else console.log([summary(outcome), ...outcome.figures].join('\n'));
    console.log(files);
    process.exit(outcome.exitCode);
  };
  let first: { signal: string; at: number } | undefined;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      const at = performance.now();
      if (!first) {
        first = { signal, at };
        void stop(signal);
      } else if (signal !== first.signal || at - first.at >= SAME_PRESS_MS) process.exit(130);
    });
  }
  // A CI script that kills `npx` (or a shell that closes) leaves this process adopted: stop as if signalled.
  if (STARTED_BY > 1) {
    const timer = setInterval(() => {
      if (process.ppid !== STARTED_BY) {
        clearInterval(timer);
        void stop(`the process that started it (pid ${STARTED_BY}) has ended`);
      }
    }, 200);
    timer.unref();
  }
}

main(process.argv.slice(2)).catch((err: Error) => {
  console.error(`proxy: unexpected error: ${redact(err.stack ?? err.message)}`);
  process.exit(2);
});
