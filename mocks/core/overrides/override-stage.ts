// The stage that applies overrides, where Prefer is: after the request passed its
// authentication and parameters (an override stands in for the operation's answer, never
// for what the real service refuses first), before Prefer and the handler. Without any
// override it costs one length check.
import type { MiddlewareHandler } from 'hono';
import { errorBody } from '../../../spec/messages.ts';
import type { Operation } from '../../../spec/model.ts';
import { type Answers, sendJson } from '../answers.ts';
import type { AppEnv } from '../env.ts';
import { consistentExample } from '../prefer/prefer.ts';
import { loggable, printable } from '../printable.ts';
import type { MockState } from '../state.ts';
import type { AppliedOverride, Override } from './override.ts';
import { fail } from './transport.ts';

/** The header an answer off the contract carries, saying why. */
export const OFF_CONTRACT_HEADER = 'X-Mock-Off-Contract';

/** Header values are bytes: what a reason holds beyond printable ASCII is written `?`. */
const headerText = (text: string) => printable(text, 300).replace(/[^\x20-\x7e]/g, '?');

export function applyOverrides(
  op: Operation,
  state: MockState,
  answers: Answers,
  warn: (line: string) => void,
): MiddlewareHandler<AppEnv> {
  const base = state.model.basePath.length;
  /** Each override off the contract is said once in the log. */
  const said = new WeakSet<Override>();
  return async (c, next) => {
    const store = state.overrides;
    if (store.size === 0) return next();
    const o = store.take(op, () => {
      const url = c.req.url;
      const q = url.indexOf('?');
      return {
        path: c.req.path.slice(base),
        query: q === -1 ? '' : url.slice(q + 1),
        headers: c.req.raw.headers,
        body: c.get('body'),
      };
    });
    if (!o) return next();
    const applied: AppliedOverride = { id: o.id };
    if (o.answer?.offContract) applied.offContract = o.answer.offContract;
    if (o.delay !== undefined) applied.delay = o.delay;
    if (o.fault) applied.fault = o.fault;
    c.set('override', applied);
    // A delayed or unanswered request shows in the journal, pending, with what took it.
    const entry = c.get('entry');
    if (entry) {
      entry.override = applied;
      if (o.fault) entry.fault = o.fault;
    }
    if (o.delay) await new Promise((resolve) => setTimeout(resolve, o.delay));
    let res: Response;
    if (o.answer) {
      const { status, headers, offContract } = o.answer;
      const body = o.answer.example
        ? consistentExample(op, status, o.answer.body, c.get('params')?.query)
        : (o.answer.body ?? errorBody(status, `answered by override ${o.id}`));
      if (status >= 400 && status < 500) c.set('refusedBy', 'override');
      if (offContract) {
        if (!said.has(o)) {
          said.add(o);
          warn(
            `mock: override ${o.id} answers ${loggable(c.req.method)} ${loggable(c.req.path)} with ${status}` +
              ` off the contract (${loggable(offContract, 300)}); the answer says so in ${OFF_CONTRACT_HEADER}`,
          );
        }
        // Off the contract on purpose: the self-check would turn it into a 500.
        res = sendJson(c, status, body, { ...headers, [OFF_CONTRACT_HEADER]: headerText(offContract) });
        if (status >= 400 && typeof (body as { message?: unknown })?.message === 'string')
          c.set('why', (body as { message: string }).message);
      } else res = answers.reply(c, op, status, body, headers);
    } else if (o.fault === 'reset' || o.fault === 'no-answer') res = new Response(null);
    else {
      // The stages of an operation hand their Response back through the promise (app.ts's inOrder).
      const answered: unknown = await next();
      res = answered instanceof Response ? answered : c.res;
    }
    return o.fault ? fail(o.fault, c.env, res) : res;
  };
}
