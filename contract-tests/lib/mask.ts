// Secrets never reach a summary, a JUnit file or a log in full: only their first few
// characters, enough for a person to tell which credential was used.
const KEEP = 8;
const known = new Set<string>();

export function mask(secret: string): string {
  return secret.length <= KEEP ? '…' : `${secret.slice(0, KEEP)}…`;
}

/** Registers a value that must be masked wherever it later shows up in text. */
export function rememberSecret(secret: string | undefined): void {
  if (secret && secret.length > KEEP) known.add(secret);
}

/** Replaces every registered secret (and anything that looks like a bearer token or a cookie value) in text. */
export function redact(text: string): string {
  let out = text;
  for (const secret of [...known].sort((a, b) => b.length - a.length)) out = out.split(secret).join(mask(secret));
  return out
    .replace(/(Bearer\s+)([^\s"',;…]{9,})/gi, (_m, p: string, v: string) => p + mask(v))
    .replace(/("secret"\s*:\s*")([^"…]{9,})"/g, (_m, p: string, v: string) => `${p}${mask(v)}"`);
}

/** Request headers as a person should see them. */
export function describeHeaders(headers: Record<string, string> | undefined): string {
  const parts = Object.entries(headers ?? {})
    .filter(([name]) => ['authorization', 'cookie', 'content-type'].includes(name.toLowerCase()))
    .map(([name, value]) => {
      const lower = name.toLowerCase();
      if (lower === 'authorization') {
        const [scheme, ...rest] = value.split(' ');
        return `${name}: ${rest.length ? `${scheme} ${mask(rest.join(' '))}` : mask(value)}`;
      }
      if (lower === 'cookie') return `${name}: ${value.split(/;\s*/).map((c) => c.replace(/=(.*)$/, (_m, v: string) => `=${mask(v)}`)).join('; ')}`;
      return `${name}: ${value}`;
    });
  return parts.length ? parts.join(', ') : 'no credentials';
}
