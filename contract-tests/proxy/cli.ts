// `server-listing-proxy --upstream <url>` (`npm run proxy --` in a clone): the flags, the
// proxy (proxy.ts), then on Ctrl-C or SIGTERM (or when the process that started it ends,
// as when a CI script kills `npx`): stop accepting, finish the requests in flight, judge
// what is left, write `--record`'s dataset, `--usage-out`'s usage profile and the reports,
// print the summary. Each is written whatever befalls the others (a recording that cannot be written still leaves
// every report), and each replaces the last run's only once it is whole (written beside
// it, then renamed): the last reports are never deleted before new ones exist.
// Exit 0: no violation at --provenance; 1: a violation; 2: nothing was judged, or it
// could not start (bad flags, the port in use); 130: a second Ctrl-C.
import { FlagError } from '../../cli/flags.ts';
import { ownPackage } from '../../cli/own-package.ts';
import { resolve } from 'node:path';
import { forTerminal } from '../reports/escape.ts';
import { reportPaths, writeReports } from '../reports/files.ts';
import { summary, verdictLine } from '../reports/outcome.ts';
import { parseOptions, USAGE, type ProxyCliOptions } from './options.ts';
import { MAX_SERVERS } from './dataset-recorder.ts';
import { startProxy, type RunningProxy } from './proxy.ts';
import { existingProfile, saveUsageProfile, UsageFileError } from '../../spec/usage-file.ts';

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
  const usageOut = opts.usageOut !== undefined ? resolve(opts.usageOut) : undefined;
  // A --usage-out file that is there must be this consumer's profile: found now, not at exit.
  if (usageOut) {
    try {
      existingProfile(usageOut, opts.consumer!);
    } catch (err) {
      if (!(err instanceof UsageFileError)) throw err;
      console.error(forTerminal(`proxy: --usage-out: ${err.message}`));
      return process.exit(2);
    }
  }
  let proxy: RunningProxy;
  try {
    proxy = await startProxy({
      upstream: opts.upstream,
      port: opts.port,
      host: opts.host,
      allowedHosts: opts.allowedHosts,
      provenance: opts.provenance,
      ...(opts.record ? { record: resolve(opts.record) } : {}),
      ...(opts.consumer !== undefined ? { consumer: opts.consumer } : {}),
      maxBodyBytes: opts.maxBody,
      upstreamTimeoutMs: opts.upstreamTimeoutMs,
      log: (line) => console.log(line),
    });
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    console.error(
      `proxy: cannot start: ${
        e.code === 'EADDRINUSE'
          ? `port ${opts.port} on ${opts.host} is in use (try --port 0 or another port)`
          : e.message
      }`,
    );
    return process.exit(2);
  }
  console.log(
    [
      `Validation proxy on ${proxy.baseUrl} -> ${opts.upstream}`,
      `  judging every answer against spec/openapi.yaml` +
        (opts.provenance === 'assumed' ? '' : ` at ${opts.provenance} and harder`) +
        '; each new violation is logged once below',
      `  the report so far: ${proxy.origin}/__proxy/report` +
        (opts.record ? `; recording the public answers to ${resolve(opts.record)} (written on exit)` : ''),
      ...(opts.consumer !== undefined
        ? [
            `  the usage of ${opts.consumer}: ${proxy.origin}/__proxy/usage` +
              (usageOut ? ` (written to ${usageOut} on exit)` : ''),
          ]
        : []),
      '  Ctrl-C writes the reports and exits (1 if a violation was seen)',
    ].join('\n'),
  );

  let stopping = false;
  const stop = async (why: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\nproxy: ${why}, stopping (finishing requests in flight, at most 5 s)`);
    let failed = false;
    try {
      await proxy.close();
    } catch (err) {
      failed = true;
      console.error(forTerminal(`proxy: stopping went wrong: ${(err as Error).message}`));
    }
    if (opts.record) {
      try {
        const rec = proxy.finishRecording()!;
        console.log(
          forTerminal(
            `Recorded ${rec.servers} servers from ${rec.requests} answers to ${rec.file}` +
              (rec.marked ? ` (${rec.marked} marked: they break the spec)` : '') +
              (rec.approximate ? `; ${rec.approximate} with a time read from relative text` : '') +
              (rec.withCredential ? `; ${rec.withCredential} left out: they held a credential` : '') +
              (rec.unreadable ? `; ${rec.unreadable} left out: they could not be read back` : '') +
              (rec.overCap
                ? `; ${rec.overCap} more servers seen past the cap of ` +
                  `${MAX_SERVERS.toLocaleString('en-US')}, not recorded`
                : ''),
          ),
        );
      } catch (err) {
        failed = true;
        console.error(forTerminal(`proxy: the recording could not be written: ${(err as Error).message}`));
      }
    }
    const profile = usageOut ? proxy.usage() : undefined;
    if (usageOut && profile) {
      try {
        const saved = saveUsageProfile(usageOut, profile);
        const where =
          saved.file === usageOut
            ? usageOut
            : `${saved.file} (${usageOut} is no longer a profile of ${profile.consumer})`;
        const merged = saved.merged !== undefined ? `, with the ${saved.merged} already there` : '';
        console.log(
          forTerminal(`Usage of ${profile.consumer}: ${profile.requests} requests${merged} written to ${where}`),
        );
      } catch (err) {
        failed = true;
        console.error(forTerminal(`proxy: the usage profile could not be written: ${(err as Error).message}`));
      }
    }
    let outcome = proxy.outcome();
    if (outcome.exitCode === 0 && outcome.reports.every((r) => r.results.every((x) => x.status === 'skip'))) {
      outcome = { ...outcome, exitCode: 2, refusal: 'nothing was judged: no answer of the API came through the proxy' };
    }
    if (outcome.exitCode === 2) console.error(forTerminal(`proxy: ${verdictLine(outcome)}`));
    else console.log([summary(outcome), ...outcome.figures.map(forTerminal)].join('\n'));
    try {
      console.log(writeReports(outcome, reports, 'proxy'));
    } catch (err) {
      failed = true;
      console.error(forTerminal(`proxy: the reports could not all be written: ${(err as Error).message}`));
    }
    // A recording or a report that could not be written fails a run that would have passed.
    process.exit(outcome.exitCode === 0 && failed ? 1 : outcome.exitCode);
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
  console.error(`proxy: unexpected error: ${forTerminal(err.stack ?? err.message)}`);
  process.exit(2);
});
