import { describe, expect, it } from 'vitest';
import { eachQueryPair } from './query-pairs.ts';

const pairs = (q: string) => {
  const out: [string, string][] = [];
  eachQueryPair(q, (n, v) => out.push([n, v]));
  return out;
};
const whatwg = (q: string) => [...new URLSearchParams(q)];

describe('eachQueryPair', () => {
  it('gives the pairs URLSearchParams gives, in order, for every shape of query', () => {
    for (const q of [
      '',
      'limit=20',
      'a=1&b=2&a=3',
      '&&a=1&&',
      'a',
      'a=',
      '=v',
      '=',
      'a==b',
      'a=1=2&b',
      'q=%20x+y',
      'q=%zz%',
      'q=%C3%A9&r=%E2%82',
      'caf\u00e9=\u00e9t\u00e9',
      'x=a%26b&y=c',
      '?a=1',
      'a=1#frag',
      'sort=users&version=1.20*&minUsers=5',
    ])
      expect(pairs(q), q).toEqual(whatwg(q));
  });

  it('agrees with URLSearchParams on 5,000 random queries of the characters that matter', () => {
    const alphabet = ['a', 'b', '=', '&', '%', '2', '0', 'F', '+', ' ', '\u00e9', '?', '#', '*'];
    let seed = 7;
    const next = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed >>> 8;
    };
    for (let i = 0; i < 5000; i++) {
      const q = Array.from({ length: next() % 16 }, () => alphabet[next() % alphabet.length]).join('');
      expect(pairs(q), JSON.stringify(q)).toEqual(whatwg(q));
    }
  });
});
