// Which attributes the dev-login cookie needs so the browser keeps it and sends it
// back, and whether any can work, from where the page is and where the mock is.
//
// Browsers decide by *site* (scheme + registrable domain, eTLD+1), not by host:
// app.myproj.test -> api.myproj.test is same-site, 192.168.1.5 -> 192.168.1.6 is not
// (an IP address is its own site). A same-site request carries a `SameSite=Lax`
// cookie. A cross-site one only carries `SameSite=None`, which must be `Secure`, and
// a browser keeps a Secure cookie only from a potentially trustworthy origin: https,
// or a loopback host (localhost, *.localhost, 127.0.0.0/8, [::1]) even over http.
// Browsers that block third-party cookies (as headless Chromium does) still keep a
// `Partitioned` one. So a cross-site page over plain http can keep the cookie only
// when the mock is on a loopback host; no attribute (and, in Chromium 156, not even
// --unsafely-treat-insecure-origin-as-secure) changes that. See docs/decisions/0009-login-cookie-by-site.md.
import { createRequire } from 'node:module';
import type * as Tldts from 'tldts';

// The public-suffix list costs tens of milliseconds to load: only a login needs it, so
// it is loaded on the first one, not at every start.
let tldts: typeof Tldts | undefined;
const getDomain: typeof Tldts.getDomain = (...args) =>
  (tldts ??= createRequire(import.meta.url)('tldts') as typeof Tldts).getDomain(...args);

export type SiteRelation = 'same-origin' | 'same-site' | 'cross-site';

export interface CookieRequest {
  /** The page's origin (the Origin header); undefined for curl or a same-origin navigation. */
  pageOrigin?: string | undefined;
  /** The browser's own verdict (Sec-Fetch-Site), preferred when present: it is right behind proxies too. */
  secFetchSite?: string | undefined;
  /** The mock's origin as the browser reached it (scheme and Host header). */
  mockOrigin: string;
}

export interface CookiePlan {
  /** One Set-Cookie per entry: everything after `name=value; ` except Max-Age. */
  attributes: string[];
  relation: SiteRelation | 'no-origin';
  /** False when no browser keeps the cookie over plain http with these origins. */
  sticks: boolean;
  /** Why not, and what to do instead; only when it does not stick. */
  problem?: { why: string; fixes: string[] };
}

const LOOPBACK_V4 = /^127(?:\.\d{1,3}){3}$/;

/** localhost, *.localhost, 127.0.0.0/8 and ::1: hosts a browser trusts over plain http. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h.endsWith('.localhost') || LOOPBACK_V4.test(h) || h === '::1';
}

/** Secure cookies are kept from https and from loopback hosts. */
export function isTrustworthy(url: URL): boolean {
  return url.protocol === 'https:' || isLoopbackHost(url.hostname);
}

/** The site of a host: its registrable domain (eTLD+1), or the host itself (IP addresses, `localhost`, `api`). */
export function siteOf(hostname: string): string {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return getDomain(h, { allowPrivateDomains: true }) ?? h;
}

/** Schemeful same-site, as browsers define it. */
export function relationOf(page: URL, mock: URL): SiteRelation {
  if (page.origin === mock.origin) return 'same-origin';
  return page.protocol === mock.protocol && siteOf(page.hostname) === siteOf(mock.hostname)
    ? 'same-site'
    : 'cross-site';
}

const parse = (s: string | undefined): URL | undefined => {
  if (!s) return undefined;
  try {
    const u = new URL(s);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u : undefined;
  } catch {
    return undefined;
  }
};

export function planLoginCookie(req: CookieRequest): CookiePlan {
  const mock = new URL(req.mockOrigin);
  const page = parse(req.pageOrigin);
  const secure = mock.protocol === 'https:' ? '; Secure' : '';
  const lax = `Path=/; HttpOnly; SameSite=Lax${secure}`;
  const site = req.secFetchSite;
  const relation: CookiePlan['relation'] =
    site === 'same-origin' || site === 'same-site' || site === 'cross-site'
      ? site
      : page
        ? relationOf(page, mock)
        : 'no-origin';
  if (relation !== 'cross-site') return { attributes: [lax], relation, sticks: true };

  const none = 'Path=/; HttpOnly; SameSite=None; Secure; Partitioned';
  // Browsers send Sec-Fetch-Site only to https and loopback URLs. Without it, "cross-site"
  // is our guess from Origin and Host, and a dev-server proxy that rewrites Host
  // (`changeOrigin`) makes a same-origin call look cross-site. So send both cookies:
  // the browser keeps the one that works (Lax for the proxied page, the partitioned
  // one for a cross-site page) and drops the other.
  const guessed = site === undefined;
  const attributes = guessed ? [none, lax] : [none];
  if (isTrustworthy(mock)) return { attributes, relation, sticks: true };
  const pageText = page?.origin ?? 'the page';
  return {
    attributes,
    relation,
    sticks: false,
    problem: {
      why:
        `the page ${pageText} and the mock ${mock.origin} are different sites, so the session cookie must be ` +
        'SameSite=None; Secure, and a browser keeps a Secure cookie only from https or a loopback host ' +
        `(localhost, 127.0.0.1), not from ${mock.origin}: every protected call will answer 401` +
        (guessed
          ? ' (unless the page reaches the mock through a proxy on its own origin: ' +
            'then the Lax copy of the cookie works)'
          : ''),
      fixes: [
        `serve the page and the API from one host: proxy /api and /__mock through your frontend dev server ` +
          `(the page then calls its own origin), or open both on the same host name`,
        page && isLoopbackHost(page.hostname)
          ? `call the mock as http://localhost:${mock.port || 80} (a loopback host) instead of ${mock.origin}`
          : undefined,
        `put the mock behind https`,
        `use an API key instead of the cookie: Authorization: Bearer <key> (fixtures/auth.json)`,
      ].filter((f): f is string => f !== undefined),
    },
  };
}
