// Judges of several exchanges at once: what one answer can only be judged by beside
// another (the same request spelt two ways, a parameter set to its default and left out).
// Pure functions too; only the suite, which sends both, can hand them the pair.
import type { Exchange } from './exchange.ts';
import type { Finding, JudgeContext } from './judge.ts';

export interface Comparison<Args extends unknown[]> {
  name: string;
  promise: string;
  compare(ctx: JudgeContext, ...args: Args): Finding[];
}

/** The defect of a request answered otherwise than the same one spelt plainly. */
export const SPELT_OTHERWISE =
  'a path parameter with a percent-encoded character is answered otherwise than the plain one';

/** `spelling`: a request that only spells another one differently (a percent-encoded path character) is answered alike. */
export const spelling: Comparison<[odd: Exchange, plain: Exchange]> = {
  name: 'spelling',
  promise: 'a request spelt otherwise is answered alike',
  compare: (ctx, odd, plain) => {
    if (odd.answer.status === plain.answer.status) return [];
    const base = ctx.model.basePath;
    const asked = plain.request.target.startsWith(`${base}/`)
      ? plain.request.target.slice(base.length)
      : plain.request.target;
    return [
      {
        judge: 'spelling',
        level: 'assumed',
        why: `status ${odd.answer.status}, but ${plain.answer.status} for the same request spelt plainly (${asked})`,
        expected: `${plain.answer.status}, as spelt plainly`,
        defect: SPELT_OTHERWISE,
        acrossSubjects: true,
      },
    ];
  },
};
