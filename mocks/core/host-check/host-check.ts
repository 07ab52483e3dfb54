// Which hosts the mock answers. A page on any web site can point a name of its own at
// 127.0.0.1 (DNS rebinding): the browser then calls the mock as `evil.test`, treats it
// as that site's own origin, reads every answer, and could log in, create keys or
// reset the mock. What gives it away is the Host header, which names the attacker's
// domain. So, as Vite (`server.allowedHosts`) and webpack-dev-server (`allowedHosts`)
// decide, the mock answers a request only when its host is:
//  - an IP address (a rebinding page cannot make the browser send its own name as one),
//  - `localhost` or a name under `.localhost` (browsers resolve those to loopback themselves),
//  - the `--host` name, or one `--allowed-host` adds (`.example.test`: that domain and its
//    subdomains; `*`: any host, the check off).
// Every other host is refused with 403, naming the flag. See docs/decisions/0030-what-a-hostile-client-meets.md.
// Which hosts those are is decided in cli/allowed-hosts.ts, which the validation proxy shares.
import type { Context, MiddlewareHandler } from 'hono';
import { hostMatcher, hostnameOf } from '../../../cli/allowed-hosts.ts';
import { printable } from '../printable.ts';

/** The host part of an absolute URL (`http://host:port/path` -> `host:port`). */
function urlHost(url: string): string {
  const start = url.indexOf('//') + 2;
  const end = url.indexOf('/', start);
  return url.slice(start, end === -1 ? undefined : end);
}

/** Refuses, with 403 naming the flag, every request whose host the mock does not answer. */
export function hostCheck(
  allowed: readonly string[],
  refuse: (c: Context, detail: string) => Response,
): MiddlewareHandler {
  const allows = hostMatcher(allowed);
  // Nearly every request names the same host: remember the last one let through.
  let lastAllowed = '';
  return (c, next) => {
    const host = urlHost(c.req.url);
    if (host === lastAllowed) return next();
    if (allows(host)) {
      lastAllowed = host;
      return next();
    }
    const name = printable(hostnameOf(host)).slice(0, 200);
    return Promise.resolve(
      refuse(
        c,
        `The mock does not answer the host '${name}': it answers loopback names, IP addresses and the hosts ` +
          'it is told (a page on another site could otherwise reach it through DNS rebinding); ' +
          `if you call it by that name, start it with --allowed-host ${name}`,
      ),
    );
  };
}
