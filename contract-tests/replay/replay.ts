// The replay phase: Dredd sends each operation's documented success once, with real
// credentials and real ids, and the spec's own JSON Schema for Gavel (closing Dredd's
// OpenAPI 3 type hole). This module fills each transaction in and notes its answer;
// once Dredd is done, each replayed operation gets two checks, both judged by the
// spec's judge: its status (and JSON), and its body against the schema.
import { STATUS_JUDGES } from '../../spec/judges/registry.ts';
import type { Operation } from '../../spec/model.ts';
import { weakest, type Provenance } from '../../spec/provenance.ts';
import { skip } from '../checks/skip.ts';
import { reasonPhrase } from '../../spec/messages.ts';
import type { Schemas } from '../../spec/judges/schemas.ts';
import { pingPath, pingsOneServer, successParameters } from '../checks/request-paths.ts';
import type { Given } from '../checks/run-parts.ts';

/** What the replay uses of the run. */
export type ReplayRun = Given<'spec' | 'scope' | 'judging' | 'credentials' | 'http' | 'keys' | 'sample'>;
import type { CheckResult } from '../shared/recorder.ts';
import { parseJson, type HttpRequest, type HttpResponse } from '../transport/http.ts';
import type { Exchange } from '../transport/transport.ts';
import { dreddMissing, runDredd, type ReplaySteps } from './dredd.ts';
import type { DreddTransaction } from './dredd-types.ts';

interface Planned {
  op: Operation;
  /** Why the transaction is not sent (recorded as skipped; 'provenance': left out silently). */
  skipReason?: string;
  /** How firm the replay is: the operation and the parameters it keeps. */
  level?: Provenance;
  sentAt?: number;
  exchange?: Exchange;
}

export interface Replayed {
  results: CheckResult[];
  /** Dredd's own log, unmasked (none when Dredd is not installed). */
  log?: string;
  /** Requests Dredd sent (outside the budget). */
  requests: number;
}

function setUri(t: DreddTransaction, uri: string): void {
  t.fullPath = t.fullPath.slice(0, t.fullPath.length - t.request.uri.length) + uri;
  t.request.uri = uri;
}

/** The name a response's schema goes by in the spec (`FindResponse`), for check names. */
function schemaName(op: Operation): string {
  const ref = (op.responses.get(op.successStatus)?.schema as { $ref?: string } | undefined)?.$ref;
  return ref ? ref.split('/').pop()! : "the spec's schema";
}

class Replay {
  readonly planned = new Map<string, Planned>();
  requests = 0;
  /** Whether Dredd ran the hooks at all (a hook file it could not load, it skips with a warning). */
  hooked = false;
  /** The id of the key the replay's own create made: its revocation aims at it (the spec's link). */
  private createdId: string | undefined;

  constructor(private readonly run: ReplayRun) {}

  private request(t: DreddTransaction): HttpRequest {
    return {
      method: t.request.method,
      url: this.run.http.url(t.request.uri),
      headers: t.request.headers,
      body: t.request.body ? parseJson(t.request.body) : undefined,
    };
  }

  /** Fills in what the transaction needs; returns why it cannot be sent, if it cannot. */
  private async prepare(t: DreddTransaction, p: Planned): Promise<string | undefined> {
    const { op } = p;
    const { scope, credentials, keys } = this.run;
    if (!scope.wants(op.provenance)) return 'provenance';
    const stopped = this.run.http.stopped();
    if (stopped) return stopped;
    const blocked = scope.writesBlocked(op);
    if (blocked) return blocked;
    const headers = credentials.forOperation(op);
    if (!headers)
      return `no credentials for ${op.allowedSchemes.join(' or ')} (set CONTRACT_API_KEY / CONTRACT_SESSION_COOKIE)`;
    Object.assign(t.request.headers, headers);
    if (op === keys.lifecycle?.create) {
      // Not the spec's example: a name that marks the key as the run's and an expiry of a day.
      t.request.body = JSON.stringify(keys.newKeyBody());
      t.request.headers['Content-Type'] = 'application/json';
    }
    if (op === keys.lifecycle?.revoke?.op) {
      const id = this.createdId ?? (await keys.create())?.id;
      this.createdId = undefined;
      if (!id) return 'could not create a key to revoke (the session cannot create keys)';
      setUri(t, keys.revokePath(id)!);
    }
    if (pingsOneServer(op)) {
      const server = await this.run.sample?.aServer();
      if (server) setUri(t, pingPath(op, server));
    }
    // Dredd sends every parameter's example at once, a query no row matches: keep the
    // required ones and the page size; the depth checks probe every other one alone.
    const kept = successParameters(op).map((x) => x.name);
    const [path, search = ''] = t.request.uri.split('?');
    const query = new URLSearchParams(search);
    for (const x of op.parameters) if (x.in === 'query' && !kept.includes(x.name)) query.delete(x.name);
    setUri(t, `${path}${query.size ? `?${query}` : ''}`);
    p.level = weakest(
      op.provenance,
      ...op.parameters.filter((x) => x.in === 'path' || query.has(x.name)).map((x) => x.provenance),
    );
    // The type hole: Gavel gets the spec's schema instead of the example's key structure.
    const schema = this.run.judging.ctx.schemas.jsonSchemaFor(op, op.successStatus);
    if (schema) t.expected.bodySchema = schema;
    // Headers are checked on every answer (the headers family), Content-Type by media type only.
    t.expected.headers = {};
    return undefined;
  }

  readonly steps: ReplaySteps = {
    beforeEach: async (t) => {
      this.hooked = true;
      const op = this.run.spec.operations.find(
        (o) => o.path === t.origin.resourceName && o.method === t.request.method.toUpperCase(),
      );
      // Dredd's OpenAPI 3 adapter turns every declared response into a transaction, but it
      // cannot provoke a 401, 429 or 500; only the success response is replayed.
      if (!op || Number(t.expected.statusCode) !== op.successStatus || !this.run.scope.selected(op)) {
        t.skip = true;
        return;
      }
      const p: Planned = { op };
      this.planned.set(t.name, p);
      p.skipReason = await this.prepare(t, p).catch((err: Error) => `could not prepare the request: ${err.message}`);
      if (p.skipReason) t.skip = true;
      else {
        await this.run.http.waitTurn(this.request(t));
        this.requests++;
        p.sentAt = performance.now();
      }
    },
    beforeEachValidation: async (t) => {
      const p = this.planned.get(t.name);
      if (!p || !t.real) return;
      const request = this.request(t);
      const ms = p.sentAt === undefined ? undefined : performance.now() - p.sentAt;
      let response: HttpResponse = {
        status: t.real.statusCode,
        headers: t.real.headers,
        text: t.real.body,
        json: parseJson(t.real.body),
      };
      const retryMs = this.run.http.answered(request, response);
      // A rate-limited answer says nothing about the contract: wait as told and ask again.
      if (retryMs !== undefined) {
        await this.run.http.pacer.pause(retryMs);
        const again = (await this.run.http.send(request)).response;
        if (again) {
          response = again;
          t.real = { statusCode: again.status, headers: again.headers, body: again.text };
        }
      }
      p.exchange = { request, response, ...(ms === undefined ? {} : { ms }) };
      if (p.op === this.run.keys.lifecycle?.create && response.status < 300)
        this.createdId = this.run.keys.keyIn(response.json)?.id;
    },
    afterEach: async (t) => {
      const p = this.planned.get(t.name);
      if (!p || p.skipReason || p.exchange) return;
      const failed = (t.errors ?? [])
        .filter((e) => e.severity === 'error')
        .map((e) => e.message)
        .join('; ');
      p.exchange = { request: this.request(t), error: failed || 'no answer from the target' };
    },
  };

  /** Two checks of each replayed answer, each as firm as what it relies on. */
  verdicts(): CheckResult[] {
    const out: CheckResult[] = [];
    const { scope } = this.run;
    const judge = this.run.judging.ctx.schemas;
    for (const { op, skipReason, level, exchange } of this.planned.values()) {
      const status = `Dredd: ${op.method} ${op.path} -> ${op.successStatus} as the spec says`;
      const bodyCheck = `Dredd: ${op.method} ${op.path} -> ${op.successStatus} body matches ${schemaName(op)}`;
      if (skipReason) {
        if (skipReason !== 'provenance')
          out.push(...skip(scope, { op, check: status, level: op.provenance, reason: skipReason }));
        continue;
      }
      const ex = exchange ?? {
        request: { method: op.method, url: this.run.http.url(op.path) },
        error: 'no answer from the target',
      };
      // The documented success of each operation, asked for a server the target lists: it is owed that success.
      const c = { op, level: level ?? op.provenance, known: { exists: true } };
      const expected = expectedText(op, op.successStatus);
      out.push(this.run.judging.case({ ...c, check: status, about: [...STATUS_JUDGES, 'json'], expected }, ex));
      const bodyLevel = judge.bodyLevel(op, op.successStatus);
      if (!bodyLevel) continue;
      const res = ex.response;
      const levelOfBody = weakest(op.provenance, bodyLevel);
      if (res?.status !== op.successStatus) {
        out.push(
          ...skip(scope, {
            op,
            check: bodyCheck,
            level: levelOfBody,
            reason: `the answer was not a ${op.successStatus} (see the check above)`,
          }),
        );
        continue;
      }
      const schema = { ...c, check: bodyCheck, level: levelOfBody, about: ['schema'] };
      out.push(this.run.judging.case({ ...schema, expected: `a body matching ${schemaName(op)}` }, ex));
    }
    return out;
  }
}

/** Runs the replay phase: Dredd over `specPath`, then the verdicts. */
export async function replayPhase(run: ReplayRun, specPath: string): Promise<Replayed> {
  // Installed from the package without Dredd (an optional peer dependency): a
  // named skip, which fails the run under --strict.
  const missing = dreddMissing();
  if (missing)
    return {
      results: [
        {
          operationId: 'dredd',
          check: "Dredd replays each operation's documented success",
          provenance: 'interface',
          status: 'skip',
          message: missing,
        },
      ],
      requests: 0,
    };
  const replay = new Replay(run);
  const dredd = await runDredd(specPath, run.http.baseUrl, replay.steps);
  const results = replay.verdicts();
  const failure =
    dredd.error?.message ?? (replay.hooked ? undefined : 'its hooks never ran (the hook file did not load)');
  if (failure) {
    const last = dredd.log
      .split('\n')
      .filter((l) => !l.includes('parser warning'))
      .slice(-8)
      .join(' | ');
    results.push({
      operationId: 'dredd',
      check: 'Dredd ran to completion',
      provenance: 'interface',
      status: 'fail',
      message: `${failure}; last output: ${last}`,
    });
  }
  return { results, log: dredd.log, requests: replay.requests };
}

/**
 * What a status of an operation should look like, for people: the exact error body where
 * the spec fixes its message (401, 403: another message fails the schema), else the error
 * body's shape (the spec's example message is about one parameter, not this check's), or
 * the schema's name.
 */
export function expectedText(op: Operation, status: number, judge?: Schemas): string {
  const declared = op.responses.get(status);
  if (declared && status >= 400) {
    const example = declared.examples.get('default') as { message?: unknown } | undefined;
    const another = { ...example, message: `${String(example?.message)} (another message)` };
    const pinned = example && judge?.body(op, status, { status, headers: {}, body: '', json: another }).problems.length;
    return pinned
      ? `${status} ${JSON.stringify(example)}`
      : `${status} application/json {"success": false, "message": "${reasonPhrase(status)}: …"}`;
  }
  const ref = (declared?.schema as { $ref?: string } | undefined)?.$ref?.split('/').pop();
  return `${status} application/json${ref ? ` matching ${ref}` : ''}`;
}
