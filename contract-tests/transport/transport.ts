// How the suite talks to the target: every request of its own within the budget, paced
// by the target's rate-limit headers and asked again after a 429; every answer, Dredd's
// included, shown to the run's observers (the answer log, the header and hygiene
// watches, the key ledger). A stopped run (Ctrl-C, SIGTERM) sends nothing more but the
// cleanup.
import type { Budget } from './budget.ts';
import { describeNetworkError, send, type Fetch, type HttpRequest, type HttpResponse } from './http.ts';
import { MAX_429_RETRIES, type Pacer } from './pacing.ts';

export interface Exchange {
  request: HttpRequest;
  response?: HttpResponse;
  /** Network failure (no answer at all). */
  error?: string;
  /** Not sent, and why (the request budget is used up, the run was stopped). */
  skipped?: string;
  /** How long the request took, waits for rate limits left out. */
  ms?: number;
}

/** Sees every answer of the run. */
export type Observer = (request: HttpRequest, response: HttpResponse) => void;

export interface TransportParts {
  /** The API base, e.g. `http://127.0.0.1:4010/api/v0.1`. */
  baseUrl: string;
  fetch: Fetch;
  budget: Budget;
  pacer: Pacer;
  observe: Observer;
  /** Aborted when the run is stopped. */
  signal?: AbortSignal;
}

export class Transport {
  readonly baseUrl: string;
  readonly budget: Budget;
  readonly pacer: Pacer;

  constructor(private readonly parts: TransportParts) {
    this.baseUrl = parts.baseUrl;
    this.budget = parts.budget;
    this.pacer = parts.pacer;
  }

  url(relative: string): string {
    return `${this.baseUrl}${relative}`;
  }

  /** A request URL relative to the base URL (path and query). */
  relative(url: string): string {
    return url.startsWith(this.baseUrl) ? url.slice(this.baseUrl.length) : new URL(url).pathname;
  }

  /** Why nothing more is sent, once the run was stopped. */
  stopped(): string | undefined {
    const signal = this.parts.signal;
    return signal?.aborted
      ? `the run was stopped${typeof signal.reason === 'string' ? ` (${signal.reason})` : ''}`
      : undefined;
  }

  /**
   * Sends one request of the suite's: within the budget (unless `essential`, for
   * cleanup), paced by the target's rate-limit headers, asked again after a 429.
   */
  async send(request: HttpRequest, options: { essential?: boolean } = {}): Promise<Exchange> {
    const relative = this.relative(request.url);
    const bucket = this.pacer.bucketOf(relative, request.headers);
    const counter = this.pacer.counterOf(relative, request.headers);
    for (let attempt = 0; ; attempt++) {
      const stopped = options.essential ? undefined : this.stopped();
      if (stopped) return { request, skipped: stopped };
      if (!this.budget.take(options.essential))
        return { request, skipped: `the request budget is used up (--budget ${this.budget.limit})` };
      const endTurn = await this.turnWithin(counter, bucket);
      let response: HttpResponse;
      let retryMs: number | undefined;
      const started = performance.now();
      try {
        try {
          response = await send(this.parts.fetch, request);
        } catch (err) {
          return { request, error: describeNetworkError(err).text, ms: performance.now() - started };
        }
        // Learnt from before the counter is handed on: the next sender knows the window this answer left.
        retryMs = this.answered(request, response);
      } finally {
        endTurn();
      }
      const ms = performance.now() - started;
      if (retryMs === undefined || attempt >= MAX_429_RETRIES) return { request, response, ms };
      await this.pacer.pause(retryMs);
    }
  }

  /**
   * A turn on the counter, the bucket's window open: a sender waits for its window without holding the counter, so
   * the other callers of one account (a key when the session's 60 are spent) go on meanwhile.
   */
  private async turnWithin(counter: string, bucket: string): Promise<() => void> {
    for (;;) {
      await this.pacer.beforeSend(bucket, counter);
      const endTurn = await this.pacer.turn(counter, bucket);
      // Another sender's answer, while this one queued, may have used the window up.
      if (!this.pacer.usedUp(bucket, counter) || this.stopped()) return endTurn;
      endTurn();
    }
  }

  /** Waits for the turn of a request the suite does not send itself (Dredd's): it draws on the same limits. */
  async waitTurn(request: HttpRequest): Promise<void> {
    const relative = this.relative(request.url);
    await this.pacer.beforeSend(
      this.pacer.bucketOf(relative, request.headers),
      this.pacer.counterOf(relative, request.headers),
    );
  }

  /**
   * Every answer passes here, the suite's and Dredd's: observed, and learnt
   * from; for a 429, how long to wait before asking again.
   */
  answered(request: HttpRequest, response: HttpResponse): number | undefined {
    this.parts.observe(request, response);
    const relative = this.relative(request.url);
    return this.pacer.afterAnswer(
      this.pacer.bucketOf(relative, request.headers),
      response.status,
      response.headers,
      this.pacer.counterOf(relative, request.headers),
    );
  }
}
