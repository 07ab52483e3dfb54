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
    const bucket = this.pacer.bucketOf(this.relative(request.url), request.headers);
    // Work running at once takes turns on a counter: its window is learnt from one answer before the next is sent.
    const endTurn = await this.pacer.turn(bucket);
    try {
      return await this.paced(request, bucket, options.essential ?? false);
    } finally {
      endTurn();
    }
  }

  private async paced(request: HttpRequest, bucket: string, essential: boolean): Promise<Exchange> {
    for (let attempt = 0; ; attempt++) {
      const stopped = essential ? undefined : this.stopped();
      if (stopped) return { request, skipped: stopped };
      if (!this.budget.take(essential))
        return { request, skipped: `the request budget is used up (--budget ${this.budget.limit})` };
      await this.pacer.beforeSend(bucket);
      let response: HttpResponse;
      const started = performance.now();
      try {
        response = await send(this.parts.fetch, request);
      } catch (err) {
        return { request, error: describeNetworkError(err).text, ms: performance.now() - started };
      }
      const ms = performance.now() - started;
      const retryMs = this.answered(request, response);
      if (retryMs === undefined || attempt >= MAX_429_RETRIES) return { request, response, ms };
      await this.pacer.pause(retryMs);
    }
  }

  /** Waits for the turn of a request the suite does not send itself (Dredd's): it draws on the same limits. */
  async waitTurn(request: HttpRequest): Promise<void> {
    await this.pacer.beforeSend(this.pacer.bucketOf(this.relative(request.url), request.headers));
  }

  /**
   * Every answer passes here, the suite's and Dredd's: observed, and learnt
   * from; for a 429, how long to wait before asking again.
   */
  answered(request: HttpRequest, response: HttpResponse): number | undefined {
    this.parts.observe(request, response);
    return this.pacer.afterAnswer(
      this.pacer.bucketOf(this.relative(request.url), request.headers),
      response.status,
      response.headers,
    );
  }
}
