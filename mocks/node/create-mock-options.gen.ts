// Written by `npm run docs:flags` from the flags createMock takes (`inCode` in mocks/node/options.ts):
// change that table, not this file.
/**
 * The mock's settings that mean something without a socket: the server's flags of the same names (see
 * `server-listing-mock --help`).
 */
export interface CreateMockFlags {
  /** Dataset seed; the same seed gives the same servers (`--seed`, default 1337). */
  seed?: number;
  /**
   * Pin the clock (e.g. 2026-01-01T00:00:00Z); with the same seed, answers are byte-identical (`--now`, default real
   * clock).
   */
  now?: string | number | Date;
  /** How many servers to generate (`--servers`, default 1000). */
  servers?: number;
  /** Generate complete rows, without the real-world nulls and odd values (see Real-world rows) (`--clean-data`). */
  cleanData?: boolean;
  /**
   * Memory for serialised search rows and their index (8 bytes per server), in MiB; past it the oldest rows are dropped
   * (0: none); in code, 8 by default: room for the rows of a few thousand servers (`--row-cache`, default 8).
   */
  rowCacheMiB?: number;
  /**
   * Keep big generated datasets here (over 20,000 servers), so the next start with the same flags loads instead of
   * generating; off: never; in code, null is off (`--cache-dir`, default ~/.cache/server-listing-mock).
   */
  cacheDir?: string | null;
  /** Serve this {"servers": [...]} file instead of generated servers (`--data`). */
  data?: string;
  /** Delay every answer by MS, or a random MIN-MAX ms (`--latency`, default 0). */
  latency?: number | { min: number; max: number };
  /**
   * Count requests and enforce the real rate limits (429 with Retry-After); off, the headers report each limit as all
   * remaining (`--rate-limit`).
   */
  rateLimit?: boolean;
  /**
   * Comma-separated allowed origins, * as wildcard; +X,+Y adds to the defaults, X,Y replaces them (`--cors-origin`,
   * default http://localhost:*,http://127.0.0.1:*).
   */
  corsOrigins?: string[];
  /**
   * No banner details and no request log; false logs one line per request, as the server does (`--quiet`, default
   * true).
   */
  quiet?: boolean;
  /**
   * Requests the journal keeps (GET /__mock/requests), the oldest dropped first; 0: none (`--journal`, default 1000).
   */
  journal?: number;
  /**
   * Record a usage profile of what this consumer (web, an app) sends, from the mock start on: GET /__mock/usage, or
   * --usage-out; reset keeps it (see Usage profiles) (`--consumer`).
   */
  consumer?: string;
  /**
   * Validate every answer against the spec; a drift answers 500 and is logged (`--self-check`, default off; on under
   * vitest or NODE_ENV=test).
   */
  selfCheck?: boolean;
  /** Fixture credentials file (`--fixtures`, default fixtures/auth.json). */
  fixtures?: string;
  /** Serve another copy of the OpenAPI document (`--spec`, default spec/openapi.yaml). */
  spec?: string;
}
