// A failure's reproduction: one curl line that sends its request again, to paste into a
// shell. The run's own credentials appear as the variables they came from
// (`$CONTRACT_API_KEY`, the session as `${CONTRACT_SESSION_COOKIE#sls_session=}`, which
// takes the bare value or `name=value`), never as their values; anything else is sent
// as it was (the suite's made-up unknown key is no secret). A body with a long run of one
// character (the 413 check's padding) is rebuilt by the shell instead of printed.
import { describeRequest } from './mask.ts';
import { type HttpRequest, onTheWire } from '../transport/http.ts';

/** Secret value -> the shell expression that stands for it. */
const variables = new Map<string, string>();

/** Registers the variable a credential came from: wherever its value is sent, the repro names the variable. */
export function nameVariable(secret: string | undefined, expression: string): void {
  if (secret) variables.set(secret, expression);
}

/** A request as a person reads it and as a shell repeats it. */
export interface ShownRequest {
  request: string;
  repro: string;
}

export function show(req: HttpRequest): ShownRequest {
  return { request: describeRequest(req), repro: curlLine(req) };
}

const single = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const inDouble = (s: string) => s.replace(/[\\"$`]/g, (c) => `\\${c}`);

/** A header as a curl argument: single-quoted, or double-quoted around the variables that stand for secrets. */
function header(name: string, value: string): string {
  const secrets = [...variables.keys()].filter((s) => value.includes(s)).sort((a, b) => b.length - a.length);
  if (!secrets.length) return `-H ${single(`${name}: ${value}`)}`;
  let parts: { text: string; variable?: boolean }[] = [{ text: `${name}: ${value}` }];
  for (const secret of secrets) {
    parts = parts.flatMap((p) =>
      p.variable
        ? [p]
        : p.text
            .split(secret)
            .flatMap((text, i) => (i ? [{ text: variables.get(secret)!, variable: true }, { text }] : [{ text }])),
    );
  }
  return `-H "${parts.map((p) => (p.variable ? p.text : inDouble(p.text))).join('')}"`;
}

/** A run of at least this many equal characters is rebuilt by the shell. */
const LONG_RUN = 200;

function data(body: string): string {
  const run = new RegExp(`(.)\\1{${LONG_RUN - 1},}`).exec(body);
  if (!run) return `--data-raw ${single(body)}`;
  const [before, after] = [body.slice(0, run.index), body.slice(run.index + run[0].length)];
  const repeated = `"$(head -c ${run[0].length} </dev/zero | tr '\\0' ${single(run[1]!)})"`;
  return `--data-raw "$(printf '%s%s%s' ${single(before)} ${repeated} ${single(after)})"`;
}

/** `curl -i ...` that sends `req` as the suite sent it (the suite asks for JSON on every request). */
export function curlLine(req: HttpRequest): string {
  // The request as the transport put it on the wire, so the line repeats what was sent.
  const { headers, body } = onTheWire(req);
  const parts = ['curl -i'];
  if (/[[\]{}]/.test(req.url)) parts.push('--globoff');
  if (/\/\.\.?(\/|$|\?)/.test(req.url)) parts.push('--path-as-is');
  if (req.method === 'HEAD') parts.push('--head');
  else if (req.method !== 'GET' || body !== undefined) parts.push(`-X ${req.method}`);
  parts.push(single(req.url));
  for (const [name, value] of Object.entries(headers)) parts.push(header(name, value));
  if (body !== undefined) parts.push(data(body));
  return parts.join(' ');
}
