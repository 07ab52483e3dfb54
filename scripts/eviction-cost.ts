// `npx tsx scripts/eviction-cost.ts`: what one eviction costs in a full cache, the way the
// mock's caches used to evict (a Map's first key, `map.keys().next()`) and the way they do
// now (mocks/search/bounded-cache.ts, lru-cache's list). In V8 a Map keeps deleted entries
// as holes until it is rehashed, and iteration from the start walks every one of them, so
// the first way costs more the more entries have gone: measure it, do not guess.
import { BoundedCache } from '../mocks/search/bounded-cache.ts';

const INSERTS = 200_000;

function mapFront(entries: number): number {
  const m = new Map<string, number>();
  for (let i = 0; i < entries; i++) m.set(`k${i}`, i);
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < INSERTS; i++) {
    m.set(`n${i}`, i);
    m.delete(m.keys().next().value!);
  }
  return Number(process.hrtime.bigint() - t0) / INSERTS;
}

function bounded(entries: number): number {
  const value = new Uint32Array(4);
  // Room for `entries` entries of this size: each insert past it evicts one.
  const cache = new BoundedCache<Uint32Array>(entries * (400 + 2 * 7 + 16), (v) => v.byteLength);
  // A key is kept on its second offer (bounded-cache.ts): each insert here is both.
  const insert = (key: string) => {
    cache.offer(key, value);
    cache.offer(key, value);
  };
  for (let i = 0; i < entries; i++) insert(`k${i}`.padEnd(7, '_'));
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < INSERTS; i++) insert(`n${i}`.padEnd(7, '_'));
  return Number(process.hrtime.bigint() - t0) / INSERTS;
}

console.log('| entries | Map, evicting keys().next() | BoundedCache (lru-cache) |');
console.log('|---|---|---|');
for (const n of [1_000, 10_000, 100_000]) {
  console.log(
    `| ${n.toLocaleString('en-US')} | ${(mapFront(n) / 1000).toFixed(2)} µs per insert | ` +
      `${(bounded(n) / 1000).toFixed(2)} µs per insert |`,
  );
}
