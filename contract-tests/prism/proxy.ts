// `npm run proxy:prism -- --upstream <url> [--port 4021]`: Prism 5.14.2's validation proxy in
// front of a real deployment. Use the API through it; every request or response that
// breaks spec/openapi.yaml is logged as a "Violation". Answers are passed through as-is
// (add --errors to turn violations into error answers instead).
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { SPEC_PATH } from '../../spec/load.ts';

const require = createRequire(import.meta.url);

export function prismArgs(upstream: string, port: number, host = '127.0.0.1', errors = false): string[] {
  return [
    require.resolve('@stoplight/prism-cli/dist/index.js'),
    'proxy',
    '-h',
    host,
    '-p',
    String(port),
    '-v',
    'warn',
    ...(errors ? ['--errors'] : []),
    SPEC_PATH,
    upstream,
  ];
}

function main(argv: string[]): void {
  let upstream = process.env.CONTRACT_BASE_URL;
  let port = 4021;
  let errors = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--upstream') upstream = argv[++i];
    else if (a === '--port') port = Number(argv[++i]);
    else if (a === '--errors') errors = true;
    else {
      console.error(
        `unknown argument '${a}'\nUsage: npm run proxy:prism -- --upstream <base url, e.g. ` +
          `https://staging.example.com/api/v0.1> [--port 4021] [--errors]`,
      );
      process.exit(2);
    }
  }
  if (!upstream || !/^https?:\/\//.test(upstream) || !Number.isInteger(port)) {
    console.error(
      'Usage: npm run proxy:prism -- --upstream <base url, e.g. https://staging.example.com/api/v0.1> [--port ' +
        '4021] [--errors]',
    );
    process.exit(2);
  }
  console.log(
    `Prism validation proxy: http://127.0.0.1:${port} -> ${upstream} (paths without /api/v0.1, e.g. ` +
      `http://127.0.0.1:${port}/servers/find). Contract violations are logged below.`,
  );
  const child = spawn(process.execPath, prismArgs(upstream, port, '127.0.0.1', errors), { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => child.kill(signal));
  child.on('exit', (code) => process.exit(code ?? 0));
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/').split('/').pop() ?? ''))
  main(process.argv.slice(2));
