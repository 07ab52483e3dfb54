// The favicons generated servers carry: a handful of genuinely valid tiny PNGs, built
// once at load by a minimal encoder (CRC32 + IHDR/IDAT/IEND), so no image library is needed.
import { deflateSync } from 'node:zlib';

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(buf: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < buf.length; i++) c = (CRC_TABLE[(c ^ (buf[i] as number)) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** A size×size RGB PNG with a two-colour pattern (the patterns are drawn for 16x16). */
export function makePng(
  size: number,
  a: readonly [number, number, number],
  b: readonly [number, number, number],
  pattern: number,
): Buffer {
  const raw = Buffer.alloc(size * (1 + size * 3));
  for (let y = 0; y < size; y++) {
    const row = y * (1 + size * 3);
    raw[row] = 0; // filter: none
    for (let x = 0; x < size; x++) {
      const on =
        pattern === 0
          ? ((x >> 2) + (y >> 2)) % 2 === 0
          : pattern === 1
            ? x < y
            : pattern === 2
              ? (x - 8) ** 2 + (y - 8) ** 2 < 30
              : y > size / 2;
      const c = on ? a : b;
      raw.set(c, row + 1 + x * 3);
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(raw)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The favicons generated servers use (data URIs). */
export const FAVICONS: readonly string[] = (() => {
  const palette: [number, number, number][] = [
    [46, 139, 87],
    [139, 69, 19],
    [70, 130, 180],
    [220, 20, 60],
    [255, 215, 0],
    [138, 43, 226],
    [30, 30, 30],
    [240, 240, 240],
  ];
  const out: string[] = [];
  for (let i = 0; i < 8; i++) {
    const png = makePng(
      16,
      palette[i] as [number, number, number],
      palette[(i + 3) % 8] as [number, number, number],
      i % 4,
    );
    out.push(`data:image/png;base64,${png.toString('base64')}`);
  }
  return out;
})();
