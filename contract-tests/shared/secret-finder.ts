// Where known secrets occur in a text, in time linear in the text whatever the number of
// secrets (Rabin-Karp over the first WINDOW characters of each pattern, a bit table in
// front of the map): the mask looks through every report line and every recorded row, and
// a proxy may know thousands of credentials. A pattern is found whole, or cut: a prefix of
// more than WINDOW characters that ends where the text's token ends (an excerpt cut inside
// it, `sls_live_0123…`), since a cut secret is still a secret.

/** Patterns are at least this long; a cut one is found from this many characters on. */
export const WINDOW = 8;
const BASE = 0x01000193;
/** BASE^(WINDOW-1) mod 2^32, to take the leaving character out of the rolling hash. */
const TOP = (() => {
  let p = 1;
  for (let i = 1; i < WINDOW; i++) p = Math.imul(p, BASE);
  return p;
})();
const TABLE_BITS = 20;
const MASK = (1 << TABLE_BITS) - 1;

/** Characters that can continue a token a secret lives in (a cut ends where none follows). */
const TOKEN = /[A-Za-z0-9_\-.~+/=%]/;

export interface Found {
  start: number;
  end: number;
  /** What it stands for (the secret itself, for an encoded form of it). */
  owner: string;
}

function hashAt(text: string, at: number): number {
  let h = 0;
  for (let k = 0; k < WINDOW; k++) h = (Math.imul(h, BASE) + text.charCodeAt(at + k)) | 0;
  return h;
}

export class SecretFinder {
  /** How many patterns hash into each slot: a zero slot is a quick "no". */
  private readonly slots = new Uint16Array(1 << TABLE_BITS);
  private readonly byHead = new Map<string, { pattern: string; owner: string }[]>();

  get size(): number {
    return this.byHead.size;
  }

  add(pattern: string, owner: string): void {
    if (pattern.length < WINDOW) return;
    const head = pattern.slice(0, WINDOW);
    let list = this.byHead.get(head);
    if (!list) {
      this.byHead.set(head, (list = []));
      const slot = hashAt(pattern, 0) & MASK;
      if (this.slots[slot]! < 0xffff) this.slots[slot]!++;
    }
    if (!list.some((p) => p.pattern === pattern)) list.push({ pattern, owner });
  }

  delete(pattern: string): void {
    if (pattern.length < WINDOW) return;
    const head = pattern.slice(0, WINDOW);
    const list = this.byHead.get(head);
    if (!list) return;
    const left = list.filter((p) => p.pattern !== pattern);
    if (left.length) {
      this.byHead.set(head, left);
      return;
    }
    this.byHead.delete(head);
    const slot = hashAt(pattern, 0) & MASK;
    if (this.slots[slot]! > 0) this.slots[slot]!--;
  }

  /** Every occurrence, whole or cut, left to right, none overlapping (the longest at a place wins). */
  find(text: string): Found[] {
    const out: Found[] = [];
    const n = text.length;
    if (n < WINDOW || this.byHead.size === 0) return out;
    let h = hashAt(text, 0);
    let from = 0;
    for (let i = 0; i + WINDOW <= n; i++) {
      if (i > 0)
        h = (Math.imul(h - Math.imul(text.charCodeAt(i - 1), TOP), BASE) + text.charCodeAt(i + WINDOW - 1)) | 0;
      if (i < from || this.slots[h & MASK] === 0) continue;
      const list = this.byHead.get(text.slice(i, i + WINDOW));
      if (!list) continue;
      let best: Found | undefined;
      for (const { pattern, owner } of list) {
        let k = WINDOW;
        while (k < pattern.length && i + k < n && text.charCodeAt(i + k) === pattern.charCodeAt(k)) k++;
        const whole = k === pattern.length;
        // Cut: the text's token ends where the match ends (the end, `…`, a quote, a space),
        // past the head (a mask shows a long secret's first WINDOW characters: that is no cut).
        const cut = !whole && k > WINDOW && (i + k === n || !TOKEN.test(text[i + k]!));
        if ((whole || cut) && (!best || k > best.end - best.start)) best = { start: i, end: i + k, owner };
      }
      if (best) {
        out.push(best);
        from = best.end;
      }
    }
    return out;
  }
}
