// Requests a client could send, valid and invalid, generated (fast-check) from the spec
// model: every operation, each of its parameters from its schema (valid values, values
// just outside the rules, hostile ones), every security scheme's credential with the
// ways real clients get it wrong, request bodies, other methods and stray paths. A
// parameter, operation or scheme added to the spec is fuzzed without a code change.
// Everything produced is a valid HTTP request at the protocol level (header values in
// Latin-1, no control characters, a percent-encoded path), so it can be sent with
// `app.request()`, fetch or node:http alike; what only a raw socket can send is the
// fuzz CLI's own business (scripts/fuzz.ts).
import fc from 'fast-check';
import { deref, type OpenApiDoc } from './load.ts';
import type { Operation, Parameter, SpecModel } from './model.ts';

export interface FuzzRequest {
  method: string;
  /** Path and query, percent-encoded, starting with `/` (the base path included). */
  path: string;
  headers: Record<string, string>;
  body?: string;
  /**
   * The `Host` the request names, when not the origin's it is sent to: a name of another
   * site (what a page sends through DNS rebinding), a loopback name, an address. A sender
   * sets the header (fetch cannot: send it with node:http) or, with `app.request()`, puts
   * it in the URL.
   */
  host?: string;
}

/** A credential to present: the security scheme it belongs to and its value. */
export interface FuzzCredential {
  scheme: string;
  value: string;
}

/** Methods a client can send through fetch and node:http (CONNECT and TRACE cannot go through fetch). */
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** Characters that tend to break parsers, decoders and matchers. */
const NASTY = [
  '*',
  '%',
  '%%',
  '%zz',
  '%E0%A4%A',
  '%00',
  '\u0000',
  '../',
  '..%2F',
  '\\',
  '"',
  "'",
  '<script>',
  '🙂',
  '\u202e',
  'İ',
  '(a+)+$',
  '[',
  '{',
  ';',
  '&',
  '=',
  '#',
  '?',
  '+',
  ' ',
];

const nastyString = fc.oneof(
  fc.constantFrom(...NASTY),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: fc.constantFrom(...NASTY), maxLength: 12 }),
  fc.integer({ min: 1, max: 30 }).map((n) => `${'*'.repeat(n)}zq`),
  fc.integer({ min: 100, max: 5000 }).map((n) => 'a'.repeat(n)),
);

// ---------------------------------------------------------------------------------------
// Values from schemas

type Schema = Record<string, any>;

/** Values a schema accepts (as they go into a query or a path: text). */
export function validText(doc: OpenApiDoc, raw: Schema, example: unknown): fc.Arbitrary<string> {
  const schema = deref<Schema>(doc, raw);
  const examples = example === undefined ? [] : [String(example)];
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum.map(String));
  switch (schema.type) {
    case 'integer': {
      const lo = schema.minimum ?? -1_000_000;
      const hi = schema.maximum ?? 1_000_000;
      return fc.oneof(
        fc.integer({ min: Math.max(lo, -(2 ** 31)), max: Math.min(hi, 2 ** 31 - 1) }).map(String),
        fc.constantFrom(String(lo), String(hi), ...examples),
      );
    }
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true, min: schema.minimum, max: schema.maximum }).map(String);
    case 'boolean':
      return fc.constantFrom('true', 'false');
    default: {
      const max = schema.maxLength ?? 64;
      const min = schema.minLength ?? 0;
      const fits = (s: string) => s.length >= min && s.length <= max;
      if (typeof schema.pattern === 'string') {
        return fc.oneof(
          fc.stringMatching(new RegExp(schema.pattern)).filter(fits),
          fc.constantFrom(...(examples.length ? examples : ['a'])),
        );
      }
      // Text filters take `*`: give it plenty of stars and real-looking words.
      const words = fc.constantFrom(
        ...examples,
        '*',
        'a*',
        '*a*',
        '1.20*',
        'Paper*',
        'survival',
        'United*',
        'Germany',
        'zzz',
      );
      return fc
        .oneof(
          words,
          fc.string({ maxLength: Math.min(max, 30) }),
          fc.string({ unit: fc.constantFrom('a', 'b', '*', '.', ' '), maxLength: Math.min(max, 20) }),
        )
        .filter(fits);
    }
  }
}

/** Values a schema refuses, or that sit right at its edges. */
function invalidText(doc: OpenApiDoc, raw: Schema): fc.Arbitrary<string> {
  const schema = deref<Schema>(doc, raw);
  const options: fc.Arbitrary<string>[] = [nastyString];
  if (schema.type === 'integer' || schema.type === 'number') {
    options.push(
      fc.constantFrom(
        'abc',
        '1.5',
        '1e400',
        '-0',
        '0x10',
        ' 5',
        '5 ',
        '١٢',
        '99999999999999999999999',
        'NaN',
        'Infinity',
        '-',
        '+1',
        '1,2',
      ),
    );
    if (typeof schema.minimum === 'number') options.push(fc.constant(String(schema.minimum - 1)));
    if (typeof schema.maximum === 'number') options.push(fc.constant(String(schema.maximum + 1)));
  }
  if (schema.type === 'boolean') options.push(fc.constantFrom('yes', 'TRUE', '1', '2', 'null', 'tru'));
  if (Array.isArray(schema.enum))
    options.push(fc.constantFrom(...schema.enum.map((v: unknown) => String(v).toLowerCase()), 'XX', 'random'));
  if (typeof schema.maxLength === 'number')
    options.push(fc.integer({ min: 1, max: 60 }).map((extra) => 'x'.repeat(schema.maxLength + extra)));
  return fc.oneof(...options);
}

/** A JSON value for a body schema: objects with some, all or none of their properties. */
function validJson(doc: OpenApiDoc, raw: Schema): fc.Arbitrary<unknown> {
  const schema = deref<Schema>(doc, raw);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
  switch (schema.type) {
    case 'object': {
      const props = Object.entries<Schema>(schema.properties ?? {});
      const record = Object.fromEntries(props.map(([name, s]) => [name, validJson(doc, s)]));
      return fc.record(record, { requiredKeys: (schema.required as string[] | undefined) ?? [] });
    }
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000 });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(validJson(doc, schema.items ?? {}), { maxLength: 3 });
    default:
      return validText(doc, schema, undefined);
  }
}

// ---------------------------------------------------------------------------------------
// Encoding into a request target

/** encodeURIComponent, which throws on a lone surrogate: that one becomes its (invalid) UTF-8 escape. */
export function percentEncode(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return `${value
      .replace(/[\ud800-\udfff]/g, 'X')
      .split('')
      .map((c) => encodeURIComponent(c))
      .join('')}%ED%A0%80`;
  }
}

/** Percent-encodes a value, sometimes with a broken escape appended. */
const encoded = (value: fc.Arbitrary<string>): fc.Arbitrary<string> =>
  fc
    .tuple(value, fc.constantFrom('', '', '', '', '%', '%zz', '%C3', '%E0%A4%A', '%00', '+'))
    .map(([v, tail]) => percentEncode(v) + tail);

/**
 * How wrong a request's parameters are: all valid (most requests, so that answers with
 * content get checked too), exactly one wrong (the error names that one), or wrong
 * anywhere.
 */
type Mode = 'valid' | 'one-wrong' | 'wild';
const mode = fc.constantFrom<Mode>(
  'valid',
  'valid',
  'valid',
  'valid',
  'valid',
  'valid',
  'one-wrong',
  'one-wrong',
  'one-wrong',
  'wild',
);

/** One parameter's draws: whether it is there, a valid value, a wrong one. */
function parameterDraws(doc: OpenApiDoc, p: Parameter) {
  const valid = fc.oneof(
    { weight: 9, arbitrary: validText(doc, p.schema, p.example) },
    { weight: p.in === 'query' ? 1 : 0, arbitrary: fc.constant('') },
  );
  const invalid = p.in === 'path' ? invalidText(doc, p.schema).filter((v) => v !== '') : invalidText(doc, p.schema);
  return fc.record({ roll: fc.integer({ min: 0, max: 99 }), valid, invalid });
}

function pathFor(doc: OpenApiDoc, model: SpecModel, op: Operation): fc.Arbitrary<string> {
  const params = [...op.parameters.filter((p) => p.in === 'path'), ...op.parameters.filter((p) => p.in === 'query')];
  const queryCount = params.filter((p) => p.in === 'query').length;
  // About three query parameters per request, however many the operation has.
  const presentPercent = queryCount ? Math.min(50, Math.round(300 / queryCount)) : 0;
  const extra = fc.option(
    fc.constantFrom('unknown=1', 'sort%3Dupdated=1', 'limit=1&limit=abc', 'a', '&&', '=', '%=%', 'motd'),
    { freq: 4 },
  );
  const trailingSlash = fc.integer({ min: 0, max: 19 }).map((n) => n === 0);
  return fc
    .record({
      how: mode,
      wrong: fc.integer({ min: 0, max: Math.max(0, params.length - 1) }),
      draws: fc.tuple(...params.map((p) => parameterDraws(doc, p))),
      escape: fc.tuple(
        ...params.map(() => fc.constantFrom('', '', '', '', '', '', '%', '%zz', '%C3', '%E0%A4%A', '%00', '+')),
      ),
      extra,
      slash: trailingSlash,
    })
    .map(({ how, wrong, draws, escape: escaped, extra: more, slash }) => {
      const values = params.map((p, i) => {
        const d = draws[i]!;
        const isWrong = how === 'one-wrong' ? i === wrong : how === 'wild' && d.roll < 40;
        const present = p.in === 'path' || isWrong || d.roll < presentPercent;
        if (!present) return undefined;
        // Broken escapes only where something is already wrong: a valid request stays valid.
        return percentEncode(isWrong ? d.invalid : d.valid) + (isWrong ? escaped[i] : '');
      });
      let i = 0;
      const path = op.path.replace(/\{[^}]+\}/g, () => values[i++]!.replace(/%3A/g, ':'));
      const query = params
        .map((p, k) => (p.in === 'query' && values[k] !== undefined ? `${p.name}=${values[k]}` : undefined))
        .filter((x): x is string => x !== undefined);
      if (more) query.push(more);
      return `${model.basePath}${path}${slash ? '/' : ''}${query.length ? `?${query.join('&')}` : ''}`;
    });
}

// ---------------------------------------------------------------------------------------
// Headers

/** Latin-1 printable text, as header values may hold. */
const headerText = (maxLength: number) =>
  fc.string({
    unit: fc
      .oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0xa0, max: 0xff }))
      .map((c) => String.fromCharCode(c)),
    maxLength,
  });

function credentialHeaders(model: SpecModel, credentials: FuzzCredential[]): fc.Arbitrary<Record<string, string>> {
  const variants: fc.WeightedArbitrary<Record<string, string>>[] = [{ weight: 4, arbitrary: fc.constant({}) }];
  for (const scheme of model.schemes.values()) {
    const mine = credentials.filter((c) => c.scheme === scheme.name).map((c) => c.value);
    const present = (headers: (secret: string) => Record<string, string>) =>
      mine.length ? fc.constantFrom(...mine).map(headers) : fc.constant({});
    const secret = fc.oneof(
      fc.constantFrom(...(mine.length ? mine : ['none'])),
      headerText(60),
      fc.constantFrom(...mine.map((v) => `${v}x`), ...mine.map((v) => v.slice(0, -1)), 'sls_test_', ''),
    );
    if (scheme.kind === 'bearer') {
      variants.push(
        { weight: 10, arbitrary: present((s) => ({ Authorization: `Bearer ${s}` })) },
        { weight: 1, arbitrary: secret.map((s) => ({ Authorization: `Bearer ${s}` })) },
        {
          weight: 1,
          arbitrary: fc
            .tuple(fc.constantFrom('Bearer', 'bearer', 'BEARER', 'Basic', 'Token', 'Bearer  '), secret)
            .map(([how, s]) => ({ Authorization: `${how} ${s}` })),
        },
        {
          weight: 1,
          arbitrary: fc
            .constantFrom('Bearer', 'Bearer ', 'Bearer a b', '', 'Basic dXNlcjpwYXNz')
            .map((a) => ({ Authorization: a })),
        },
      );
    } else {
      const name = scheme.cookieName!;
      const value = fc.oneof(
        secret,
        secret.map(percentEncode),
        secret.map((s) => `"${s}"`),
        fc.constantFrom('%', '%zz', '%E0%A4%A', 'a%', '%%41', '"', '', ' '),
        headerText(40),
      );
      variants.push(
        { weight: 10, arbitrary: present((s) => ({ Cookie: `${name}=${s}` })) },
        { weight: 2, arbitrary: value.map((v) => ({ Cookie: `${name}=${v}` })) },
        {
          weight: 1,
          arbitrary: fc.tuple(value, value).map(([a, b]) => ({ Cookie: `other=1; ${name}=${a}; ${name}=${b}; x` })),
        },
        {
          weight: 1,
          arbitrary: fc
            .constantFrom(name, `${name}=`, `;;;`, `=${name}`, `${name.toUpperCase()}=abc`)
            .map((c) => ({ Cookie: c })),
        },
      );
    }
  }
  // Two schemes at once (a key and a session), as a browser with both might send.
  const one = fc.oneof(...variants);
  return fc.oneof(
    { weight: 5, arbitrary: one },
    { weight: 1, arbitrary: fc.tuple(one, one).map(([a, b]) => ({ ...a, ...b })) },
  );
}

function extraHeaders(op: Operation | undefined): fc.Arbitrary<Record<string, string>> {
  const statuses = op ? [...op.responses.keys()].map(String) : ['200'];
  const examples = op ? [...new Set([...op.responses.values()].flatMap((r) => [...r.examples.keys()]))] : [];
  const prefer = fc.oneof(
    fc.constantFrom(...statuses).map((code) => `code=${code}`),
    fc
      .tuple(fc.constantFrom(...statuses), fc.constantFrom(...examples, 'nope'))
      .map(([code, ex]) => `code=${code}, example=${ex}`),
    fc.constantFrom(
      'code=418',
      'code=abc',
      'code=',
      'example=',
      'code=200;example="page"',
      'respond-async',
      'code=1e3',
    ),
    headerText(30),
  );
  const origin = fc.oneof(
    fc.constantFrom(
      'http://localhost:5173',
      'http://127.0.0.1:3000',
      'https://evil.example',
      'null',
      'http://localhost:*',
      '',
    ),
    headerText(80),
    fc.integer({ min: 1, max: 4000 }).map((n) => `http://${'a:'.repeat(n)}`),
  );
  const forwarded = fc.oneof(
    fc.ipV4(),
    fc.ipV6(),
    headerText(40),
    fc.tuple(fc.ipV4(), fc.ipV4()).map(([a, b]) => `${a}, ${b}`),
  );
  return fc.record(
    {
      Prefer: prefer,
      Origin: origin,
      'X-Forwarded-For': forwarded,
      Accept: fc.constantFrom('application/json', '*/*', 'text/html'),
    },
    { requiredKeys: [] },
  );
}

// ---------------------------------------------------------------------------------------
// Bodies

function bodyFor(
  doc: OpenApiDoc,
  op: Operation | undefined,
  maxBodyBytes: number,
): fc.Arbitrary<{ body?: string; headers: Record<string, string> }> {
  const schema = op?.requestBody?.schema;
  const json = schema ? validJson(doc, schema as Schema).map((v) => JSON.stringify(v)) : fc.constant('{}');
  const broken = fc.constantFrom(
    '{',
    '{"name":',
    'null',
    '[]',
    '"text"',
    '1',
    'true',
    '{"name": 5}',
    '{"expires_in_days": -1}',
    '{"expires_in_days": 1.5}',
    '{"unknown": true}',
    '{"name": ""}',
    `${'['.repeat(3000)}${']'.repeat(3000)}`,
    '\u0000',
    '{"name":"\\ud800"}',
  );
  const big = fc.integer({ min: 1, max: 3 * maxBodyBytes }).map((n) => JSON.stringify({ name: 'x'.repeat(n) }));
  const text = fc.oneof(
    { weight: 5, arbitrary: json },
    { weight: 3, arbitrary: broken },
    { weight: 1, arbitrary: big },
    { weight: 1, arbitrary: fc.string({ maxLength: 50 }) },
  );
  const type = fc.constantFrom(
    'application/json',
    'application/json',
    'application/json; charset=utf-8',
    'APPLICATION/JSON',
    'text/plain',
    'application/x-www-form-urlencoded',
    '',
    'multipart/form-data; boundary=x',
  );
  return fc.option(fc.tuple(text, type), { freq: 3 }).map((b): { body?: string; headers: Record<string, string> } => {
    if (!b) return { headers: {} };
    const [body, contentType] = b;
    return { body, headers: contentType ? { 'Content-Type': contentType } : {} };
  });
}

// ---------------------------------------------------------------------------------------
// Requests

export interface ArbitraryOptions {
  /** Credentials to present (fixture values); unknown and broken ones are made up. */
  credentials: FuzzCredential[];
}

/** Hosts a request may name: other sites' (refused by a server that checks its Host), loopback names, addresses. */
const HOSTS = [
  'evil.test',
  'evil.test:4010',
  'EVIL.TEST.',
  'localhost.evil.test',
  '127.0.0.1.nip.io',
  'localhost:5173',
  'app.localhost',
  '127.0.0.2:4010',
  '[::1]:4010',
];

/** One request in twenty names a host of its own. */
const hostArbitrary = fc.oneof(
  { weight: 19, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: fc.constantFrom(...HOSTS) },
);

/** Requests to the operations of the spec, valid and invalid, and stray ones beside them. */
export function requestArbitrary(model: SpecModel, { credentials }: ArbitraryOptions): fc.Arbitrary<FuzzRequest> {
  const doc = model.doc;
  const maxBody = model.limits.maxBodyBytes;
  const auth = credentialHeaders(model, credentials);
  const operationRequests = model.operations.map((op) =>
    fc
      .record({
        method: fc.oneof(
          { weight: 9, arbitrary: fc.constant(op.method) },
          { weight: 1, arbitrary: fc.constantFrom(...METHODS) },
        ),
        path: pathFor(doc, model, op),
        auth,
        extra: fc.option(extraHeaders(op), { freq: 3 }),
        body: bodyFor(doc, op, maxBody),
        host: hostArbitrary,
      })
      .map(({ method, path, auth: a, extra, body, host }) =>
        assemble(method, path, { ...a, ...(extra ?? {}) }, body, host),
      ),
  );
  const strayPath = fc.oneof(
    fc.constantFrom(
      '/',
      model.basePath,
      `${model.basePath}/`,
      `${model.basePath}/nope`,
      '/__mock/login',
      '/__mock/logout',
      '/__mock/reset',
      '/__mock/nope',
      `${model.basePath}/servers`,
      `${model.basePath}/status/ping/`,
      '//',
      '/%2e%2e/%2e%2e/etc/passwd',
      `${model.basePath}/user/apikeys/`,
      `${model.basePath}/servers/find/extra`,
    ),
    encoded(nastyString).map((s) => `${model.basePath}/${s}`),
    encoded(nastyString).map((s) => `/__mock/login?user=${s}`),
  );
  const stray = fc
    .record({
      method: fc.constantFrom(...METHODS),
      path: strayPath,
      auth,
      extra: fc.option(extraHeaders(undefined), { freq: 3 }),
      body: bodyFor(doc, undefined, maxBody),
      host: hostArbitrary,
    })
    .map(({ method, path, auth: a, extra, body, host }) =>
      assemble(method, path, { ...a, ...(extra ?? {}) }, body, host),
    );
  return fc.oneof({ weight: 17, arbitrary: fc.oneof(...operationRequests) }, { weight: 3, arbitrary: stray });
}

function assemble(
  method: string,
  path: string,
  headers: Record<string, string>,
  body: { body?: string; headers: Record<string, string> },
  host: string | undefined,
): FuzzRequest {
  const named = host === undefined ? {} : { host };
  // fetch refuses a body on GET and HEAD.
  if (method === 'GET' || method === 'HEAD' || body.body === undefined) return { method, path, headers, ...named };
  return { method, path, headers: { ...headers, ...body.headers }, body: body.body, ...named };
}

/** A shell-quoted curl line that sends `req` to `origin`. */
export function curlLine(origin: string, req: FuzzRequest, bodyFile?: string): string {
  const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const parts = ['curl -i', req.method === 'HEAD' ? '--head' : `-X ${req.method}`, q(origin + req.path)];
  if (req.host !== undefined) parts.push(`-H ${q(`Host: ${req.host}`)}`);
  for (const [k, v] of Object.entries(req.headers)) parts.push(`-H ${q(`${k}: ${v}`)}`);
  if (req.body !== undefined) parts.push(bodyFile ? `--data-binary @${q(bodyFile)}` : `--data-raw ${q(req.body)}`);
  return parts.join(' ');
}
