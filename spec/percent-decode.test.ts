import { describe, expect, it } from 'vitest';
import { tolerantlyDecoded } from './percent-decode.ts';

describe('tolerantlyDecoded', () => {
  it('decodes as the decoder does when the text is well formed', () => {
    expect(tolerantlyDecoded('/servers/%66ind%20x', decodeURI)).toBe('/servers/find x');
    expect(tolerantlyDecoded('a%2Fb', decodeURIComponent)).toBe('a/b');
    expect(tolerantlyDecoded('a%2Fb', decodeURI)).toBe('a%2Fb');
  });

  it('leaves a malformed escape as it is and still decodes the good runs beside it', () => {
    expect(tolerantlyDecoded('%zz-%41%42-%E2%82-%e2%82%ac', decodeURIComponent)).toBe('%zz-AB-%E2%82-€');
    expect(tolerantlyDecoded('100%-%73ecret', decodeURI)).toBe('100%-secret');
  });
});
