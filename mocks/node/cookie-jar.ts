// The cookies a browser would keep for the API, for the mock in process: Node's fetch keeps
// none, so a unit test that logs in (`POST /__mock/login`) got 401 on its next call. The jar
// stores what the mock's answers set (`Max-Age` honoured, `Max-Age=0` deletes) and sends it
// with every later request that carries no Cookie header of its own, unless the request
// says `credentials: 'omit'`, as a browser would. One jar per mock: one browser talking to
// one API (every origin the app calls reaches the same mock in process).

interface Kept {
  value: string;
  /** Date.now() after which it is gone; undefined: a session cookie, kept until the jar is cleared. */
  expires?: number;
}

export class CookieJar {
  private readonly cookies = new Map<string, Kept>();

  /** Keeps what one `Set-Cookie` line says. */
  set(line: string, now = Date.now()): void {
    const [pair, ...attributes] = line.split(';');
    const eq = pair!.indexOf('=');
    if (eq <= 0) return;
    const name = pair!.slice(0, eq).trim();
    const value = pair!.slice(eq + 1).trim();
    let expires: number | undefined;
    for (const a of attributes) {
      const [key, v] = a.split('=').map((s) => s.trim());
      if (key?.toLowerCase() === 'max-age' && v !== undefined && /^-?\d+$/.test(v)) expires = now + Number(v) * 1000;
      else if (key?.toLowerCase() === 'expires' && v !== undefined && expires === undefined) {
        const t = Date.parse(v);
        if (!Number.isNaN(t)) expires = t;
      }
    }
    if (expires !== undefined && expires <= now) this.cookies.delete(name);
    else this.cookies.set(name, { value, ...(expires !== undefined ? { expires } : {}) });
  }

  /** The Cookie header for a request now; undefined when the jar is empty. */
  header(now = Date.now()): string | undefined {
    const parts: string[] = [];
    for (const [name, kept] of this.cookies) {
      if (kept.expires !== undefined && kept.expires <= now) this.cookies.delete(name);
      else parts.push(`${name}=${kept.value}`);
    }
    return parts.length ? parts.join('; ') : undefined;
  }

  clear(): void {
    this.cookies.clear();
  }
}
