import { crc32, inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { FAVICONS, makePng } from './favicons.ts';

/** Decodes a data URI and checks it is a structurally valid PNG (signature, chunk CRCs, IHDR, inflatable IDAT). */
function checkPng(uri: string): void {
  expect(uri).toMatch(/^data:image\/png;base64,[A-Za-z0-9+/]+=*$/);
  const buf = Buffer.from(uri.slice('data:image/png;base64,'.length), 'base64');
  expect([...buf.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  let off = 8;
  const types: string[] = [];
  const idat: Buffer[] = [];
  let width = 0;
  let height = 0;
  while (off < buf.length) {
    const len = buf.readUInt32BE(off);
    const type = buf.toString('latin1', off + 4, off + 8);
    const data = buf.subarray(off + 8, off + 8 + len);
    expect(buf.readUInt32BE(off + 8 + len)).toBe(crc32(buf.subarray(off + 4, off + 8 + len)));
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      expect(data[8]).toBe(8);
      expect(data[9]).toBe(2);
    }
    if (type === 'IDAT') idat.push(data);
    types.push(type);
    off += 12 + len;
  }
  expect(types[0]).toBe('IHDR');
  expect(types.at(-1)).toBe('IEND');
  expect(inflateSync(Buffer.concat(idat)).length).toBe(height * (1 + width * 3));
}

describe('favicons', () => {
  it('FAVICONS are valid tiny PNG data URIs, all different', () => {
    for (const f of FAVICONS) checkPng(f);
    expect(new Set(FAVICONS).size).toBe(FAVICONS.length);
  });

  it('makePng encodes other sizes too', () => {
    checkPng(`data:image/png;base64,${makePng(5, [255, 0, 0], [0, 0, 255], 1).toString('base64')}`);
  });
});
