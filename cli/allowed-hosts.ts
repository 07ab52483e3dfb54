// Which hosts a program serving on a socket answers: the mock and the validation proxy
// both answer only these (a page on any web site can point a name of its own at
// 127.0.0.1, DNS rebinding, and then reads every answer as its own origin's; its Host
// header gives it away). As Vite (`server.allowedHosts`) and webpack-dev-server
// (`allowedHosts`) decide, a request is answered only when its host is:
//  - an IP address (a rebinding page cannot make the browser send its own name as one),
//  - `localhost` or a name under `.localhost` (browsers resolve those to loopback themselves),
//  - the `--host` name, or one `--allowed-host` adds (`.example.test`: that domain and its
//    subdomains; `*`: any host, the check off).
// See docs/decisions/0030-what-a-hostile-client-meets.md. Moved here from the mock's
// host check (mocks/core/host-check/) so that the proxy shares it: contract-tests may not
// import the mock, and cli/ is under both.
import { isIP } from 'node:net';

/** The entries of `--allowed-host LIST`; throws (with the fix) on an entry that is no host name. */
export function parseAllowedHosts(raw: string): string[] {
  const entries = raw
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  if (entries.length === 0)
    throw new Error(
      'needs at least one host name, e.g. api.myproj.test (or .myproj.test for a domain and its subdomains)',
    );
  for (const e of entries) {
    if (e === '*') continue;
    const name = e.startsWith('.') ? e.slice(1) : e;
    if (/^[a-z][a-z0-9+.-]*:\/\//.test(e))
      throw new Error(`entry '${e}' is a URL; write its host name alone, e.g. ${new URL(e).hostname}`);
    if (!/^[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*\.?$/.test(name)) {
      throw new Error(
        `entry '${e}' is not a host name (no port, path or scheme): write e.g. api.myproj.test, or ` +
          `.myproj.test for a domain and its subdomains`,
      );
    }
  }
  return entries;
}

/**
 * The host name of a Host header value or a URL's host (`[::1]:4010` -> `::1`), lower-cased, without a trailing dot.
 */
export function hostnameOf(host: string): string {
  const h = host.toLowerCase();
  if (h.startsWith('[')) {
    const end = h.indexOf(']');
    return end === -1 ? h : h.slice(1, end);
  }
  const colon = h.indexOf(':');
  const name = colon === -1 ? h : h.slice(0, colon);
  return name.endsWith('.') ? name.slice(0, -1) : name;
}

/** Does the mock answer this host (a Host header value: name or address, maybe a port)? */
export function hostMatcher(allowed: readonly string[]): (host: string) => boolean {
  if (allowed.includes('*')) return () => true;
  const exact = new Set(allowed.filter((a) => !a.startsWith('.')).map(hostnameOf));
  const domains = allowed.filter((a) => a.startsWith('.')).map((a) => hostnameOf(a.slice(1)));
  return (host) => {
    const name = hostnameOf(host);
    return (
      exact.has(name) ||
      name === 'localhost' ||
      name.endsWith('.localhost') ||
      isIP(name) !== 0 ||
      domains.some((d) => name === d || name.endsWith(`.${d}`))
    );
  };
}
