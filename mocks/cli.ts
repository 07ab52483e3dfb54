// `npm run mock`: parse flags, start the server, print where it is and how to call
// it, log one line per request, stop cleanly on Ctrl-C.
import { relative } from 'node:path';
import { credentialHeaders } from '../spec/model.ts';
import { helpText, OptionsError, parseOptions, type MockOptions } from './options.ts';
import { startMock, STOP_GRACE_MS, type RunningMock } from './server.ts';

function banner(running: RunningMock, options: MockOptions, ms: number): string {
  const { origin, baseUrl, mock } = running;
  const { fixtures, servers, model } = mock.state;
  const clock = options.now !== undefined ? `pinned at ${new Date(options.now).toISOString()}` : 'real time';
  const source = options.data ? `loaded from ${options.data}` : `generated, seed ${options.seed}`;
  const lines = [
    `Mock listening on ${baseUrl}`,
    `  servers:     ${servers.length} (${source}), clock ${clock}, ready in ${ms} ms`,
    `  rate limits: ${options.rateLimit ? 'enforced (429 with Retry-After)' : 'reported in headers, not enforced (--rate-limit)'}`,
    `  CORS:        ${options.corsOrigins.join(', ')} (with credentials)`,
    '',
    'Try it:',
    `  curl '${baseUrl}/servers/find?limit=2'`,
    `  curl '${baseUrl}/status/ping/${servers[0] ? `${servers[0].address}:${servers[0].port}` : 'example.org'}'`,
    '',
    `Fixture credentials (${relative(process.cwd(), options.fixtures)}; fake, for this mock only) and what GET /user/apikeys answers:`,
  ];
  for (const cred of fixtures.credentials) {
    const auth = Object.entries(credentialHeaders(model.schemes.get(cred.type)!, cred.value)).map(([k, v]) => `-H '${k}: ${v}'`).join(' ');
    lines.push(`  ${cred.name.padEnd(18)} ${String(cred.expect)}  curl ${auth} ${baseUrl}/user/apikeys`);
  }
  lines.push(
    '',
    'Browser login (sets the session cookie), logout, reset to the seeded state:',
    `  curl -i -X POST ${origin}/__mock/login -H 'Content-Type: application/json' -d '{"user":"${fixtures.users[0]?.email ?? ''}"}'`,
    `  curl -X POST ${origin}/__mock/logout    curl -X POST ${origin}/__mock/reset`,
    '',
    'Requests (method path status time) follow; Ctrl-C stops.',
  );
  return lines.join('\n');
}

async function main(): Promise<void> {
  let options: ReturnType<typeof parseOptions>;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (err) {
    if (err instanceof OptionsError) {
      console.error(`mock: ${err.message}`);
      process.exit(2);
    }
    throw err;
  }
  if (options.help) {
    console.log(helpText());
    return;
  }
  const started = performance.now();
  let running: RunningMock;
  try {
    running = await startMock(options);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const why = e.code === 'EADDRINUSE' ? `port ${options.port} on ${options.host} is in use (try --port 0 or another port)` : e.message;
    console.error(`mock: cannot start: ${why}`);
    process.exit(1);
  }
  const ms = Math.round(performance.now() - started);
  console.log(options.quiet ? `Mock listening on ${running.baseUrl}` : banner(running, options, ms));

  // Stop accepting, let requests in flight finish (at most STOP_GRACE_MS), then exit.
  // A second signal does not wait.
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) process.exit(130);
    stopping = true;
    if (!options.quiet) console.log(`\nmock: ${signal}, stopping (finishing requests in flight, at most ${STOP_GRACE_MS / 1000} s)`);
    await running.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

void main().catch((err) => {
  console.error(`mock: ${(err as Error).message}`);
  process.exit(1);
});
