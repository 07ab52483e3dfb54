// `json`: every answer with a body is JSON and says so (`Content-Type: application/json`,
// a charset parameter allowed); an answer HTTP gives no body (HEAD, 204, 304) has none.
// As firm as the document's own "requests and responses are JSON" and the operation.
import { weakest } from '../provenance.ts';
import { type Exchange, mediaType } from './exchange.ts';
import { judge, type JudgeContext } from './judge.ts';
import { routeLevel } from './server-error.ts';

function level(ex: Exchange, ctx: JudgeContext) {
  return weakest(routeLevel(ex, ctx), ctx.schemas.jsonLevel() ?? 'assumed');
}

export const json = judge({
  name: 'json',
  promise: 'every answer is JSON, and says so (Content-Type: application/json)',
  applies: (ex, ctx) => ctx.read(ex).route.kind !== 'outside-api' && ctx.schemas.jsonLevel() !== undefined,
  level,
  judge: (ex, ctx) => {
    const { status, text, json: body, headers } = ex.answer;
    const base = { judge: 'json', level: level(ex, ctx) };
    if (ex.request.method === 'HEAD' || status === 204 || status === 304) {
      return text === ''
        ? []
        : [
            {
              ...base,
              why: `${status} to ${ex.request.method} carries a body`,
              defect: 'an answer HTTP gives no body has one',
            },
          ];
    }
    const type = mediaType(headers['content-type']) || '(none)';
    if (body === undefined) {
      const shown = text.replace(/\s+/g, ' ').trim();
      return [
        {
          ...base,
          why:
            `${status} body is not JSON: ` +
            `${shown.length > 120 ? `${shown.slice(0, 120)}… (${text.length} chars)` : shown || '(empty body)'}`,
          defect: `Content-Type is '${type}' where the spec promises application/json`,
          evidence: { wrongType: type },
        },
      ];
    }
    if (type === 'application/json') return [];
    return [
      {
        ...base,
        why:
          `Content-Type is ${headers['content-type'] ? `'${headers['content-type']}'` : 'missing'}, expected ` +
          `application/json`,
        defect: `Content-Type is '${type}' where the spec promises application/json`,
        evidence: { wrongType: type },
      },
    ];
  },
});
