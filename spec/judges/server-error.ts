// `server-error`: no answer is a 5xx, unless the request asked for that very status on
// purpose (the mock's `Prefer: code=`, which only the mock's own judging knows to excuse).
// A server error breaks the operation's promise of a declared answer; a request no
// operation matches breaks the routing's.
import type { Provenance } from '../provenance.ts';
import type { Exchange, ReceivedAnswer } from './exchange.ts';
import { judge, type JudgeContext } from './judge.ts';

/**
 * What tells one server error from another: the status and the error's first line (a
 * JSON body's `message`), with what varies from request to request taken out (quoted
 * values, numbers, byte escapes), so one crash met through many requests reads the same.
 */
export function crashSignature(answer: Pick<ReceivedAnswer, 'status' | 'text' | 'json'>): string {
  const json = answer.json as { message?: unknown; error?: unknown } | undefined;
  const said =
    typeof json?.message === 'string'
      ? json.message
      : typeof json?.error === 'string'
        ? json.error
        : (answer.text.split('\n').find((l) => l.trim()) ?? '');
  const general = said
    .replace(/'[^']*'|"[^"]*"|`[^`]*`/g, '…')
    .replace(/\\x[0-9a-f]{2}/gi, '')
    .replace(/\d+/g, '#')
    .replace(/\s+/g, ' ')
    .trim();
  return `${answer.status} ${general.length > 120 ? `${general.slice(0, 120)}…` : general || '(empty body)'}`;
}

/** The level of a promise about an exchange's route: its operation's, or the routing's. */
export function routeLevel(ex: Exchange, ctx: JudgeContext): Provenance {
  return ctx.operation(ex)?.provenance ?? ctx.model.routing.provenance;
}

export const serverError = judge({
  name: 'server-error',
  promise: 'no answer is a server error (5xx)',
  applies: (ex, ctx) => ctx.read(ex).route.kind !== 'outside-api',
  level: routeLevel,
  judge: (ex, ctx) => {
    const { status, text } = ex.answer;
    if (status < 500 || status === ex.known?.askedStatus) return [];
    return [
      {
        judge: 'server-error',
        level: routeLevel(ex, ctx),
        why: `status ${status}: the server failed: ${text.replace(/\s+/g, ' ').slice(0, 200)}`,
        defect: 'the server failed',
        evidence: { crash: crashSignature(ex.answer) },
      },
    ];
  },
});
