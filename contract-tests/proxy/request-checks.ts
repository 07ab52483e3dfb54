// What one exchange shows about the request side, beyond the answer's own shape: a
// protected operation answered without credentials, a value the spec refuses answered
// 2xx, a method a path does not declare answered otherwise than the spec's routing says.
import { mediaType, type AnswerJudge } from '../../spec/judge.ts';
import { operationFor, type Operation, type SpecModel } from '../../spec/model.ts';
import { weakest, type Provenance } from '../../spec/provenance.ts';
import { CHECKS, sessionOf, type Judged, type Violation } from './exchange.ts';
import { allowed } from './search-rows.ts';

/** What one answer shows about the request it got: credentials, refused values. */
export function requestSide(model: SpecModel, judge: AnswerJudge, j: Judged, op: Operation): Violation[] {
  const out: Violation[] = [];
  const success = j.status >= 200 && j.status < 300;
  if (!success) return out;
  const carries =
    j.requestHeaders.authorization !== undefined || sessionOf(j.requestHeaders.cookie, model.cookieName) !== undefined;
  if (!op.isPublic && !carries) {
    const level = weakest(op.provenance, ...op.schemes.map((s) => model.schemes.get(s)?.provenance));
    out.push({
      check: CHECKS.auth,
      level,
      why: `status ${j.status} to a request without credentials, expected 401`,
      expected: '401 with the error body',
      evidence: { answer: { status: j.status, type: mediaType(j.headers['content-type']) }, expectedStatus: 401 },
    });
  }
  const refused: string[] = [];
  let level: Provenance = 'interface';
  for (const p of op.parameters) {
    const value = sentValue(j, op, p, model.basePath);
    if (value === undefined || (value === '' && p.raw.allowEmptyValue)) continue;
    if (!allowed(judge, p, value)) {
      refused.push(`${p.name}=${value}`);
      level = weakest(level, op.provenance, p.provenance);
    }
  }
  if (refused.length) {
    out.push({
      check: CHECKS.refused,
      level,
      why: `status ${j.status} to ${refused.join(', ')}, which the spec refuses; expected 400`,
      expected: '400 with the error body naming the parameter',
      evidence: {
        answer: { status: j.status, type: mediaType(j.headers['content-type']) },
        expectedStatus: 400,
        finding: 'the target accepts values the spec refuses',
      },
    });
  }
  return out;
}

/** The one value a query or path parameter was sent with (undefined when it was not sent, or sent twice). */
function sentValue(
  j: Judged,
  op: Operation,
  { name, in: where }: { name: string; in: string },
  basePath: string,
): string | undefined {
  if (where === 'query') {
    const all = j.url.searchParams.getAll(name);
    return all.length === 1 ? all[0] : undefined;
  }
  if (where !== 'path') return undefined;
  const template = op.path.split('/');
  const segments = j.url.pathname.slice(basePath.length).split('/');
  const at = template.indexOf(`{${name}}`);
  if (at < 0 || segments.length !== template.length) return undefined;
  try {
    return decodeURIComponent(segments[at]!);
  } catch {
    return undefined;
  }
}

/** A path the spec has, asked with a method it does not declare: `x-routing.wrongMethod` with an Allow header. */
export function wrongMethod(model: SpecModel, j: Judged): Violation[] {
  const path = j.url.pathname.slice(model.basePath.length);
  const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].filter((m) => operationFor(model, m, path));
  if (!methods.length) return [];
  const want = model.routing.wrongMethod;
  const allow = j.headers.allow;
  if (j.status === want && allow) return [];
  const why =
    j.status !== want
      ? `status ${j.status} to ${j.method} ${path}, which declares only ${methods.join(', ')}; expected ${want}`
      : `${want} without an Allow header (${methods.join(', ')})`;
  return [
    {
      check: CHECKS.routing,
      level: model.routing.provenance,
      why,
      expected: `${want} with Allow: ${methods.join(', ')}`,
      evidence: { answer: { status: j.status, type: mediaType(j.headers['content-type']) }, expectedStatus: want },
    },
  ];
}
