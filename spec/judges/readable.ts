// `readable`: a client can use every answer: its body arrives whole (the connection does
// not close inside it), in an encoding it decodes (gzip, deflate, br or none) that does
// decode, and an answer comes once a request was sent. What the receiver could not read it
// says (`answer.unreadable`); the judges of the body then do not run (registry.ts), and
// this one fails it, one defect per kind, whatever the values were (a cause per kind, not
// one per Content-Encoding ever seen).
import type { Unreadable } from './exchange.ts';
import { judge } from './judge.ts';
import { routeLevel } from './server-error.ts';

const DEFECTS: Record<Unreadable['kind'], string> = {
  cut: 'answers stop before the end of their body (the connection closes inside it)',
  undecodable: 'bodies do not decode as their Content-Encoding says',
  'unknown-encoding': 'bodies come in a Content-Encoding clients do not decode',
  'no-answer': 'requests get no answer (the connection closes or times out first)',
};

export const readable = judge({
  name: 'readable',
  promise: 'every answer can be used: it comes, its body whole, in an encoding clients decode',
  applies: (ex, ctx) => ctx.read(ex).route.kind !== 'outside-api',
  level: routeLevel,
  judge: (ex, ctx) => {
    const u = ex.answer.unreadable;
    if (!u) return [];
    return [
      {
        judge: 'readable',
        level: routeLevel(ex, ctx),
        why: u.kind === 'no-answer' ? `no answer: ${u.detail}` : `status ${ex.answer.status}: ${u.detail}`,
        expected: 'a whole answer, its body in gzip, deflate, br or no encoding',
        defect: DEFECTS[u.kind],
      },
    ];
  },
});
