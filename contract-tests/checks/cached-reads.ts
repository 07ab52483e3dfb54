// GET requests of the depth checks, all with the same credentials (the API key when the
// run has one: its plan pages widest and its rate limits are the highest; public
// operations answer the same either way). A query asked before is answered from memory
// unless a check asks afresh (to tell a live target's moving counts from a defect).
import type { Operation } from '../../spec/model.ts';
import type { CredentialSet } from '../shared/credentials.ts';
import type { Exchange, Transport } from '../transport/transport.ts';
import { queryString, type Query } from './meaning/answer-rows.ts';

export class CachedReads {
  readonly headers: Record<string, string>;
  private readonly memory = new Map<string, Exchange>();
  private readonly asking = new Map<string, Promise<Exchange>>();

  constructor(
    private readonly http: Transport,
    credentials: CredentialSet,
  ) {
    this.headers = credentials.headers('apiKey') ?? credentials.headers('session') ?? {};
  }

  async get(op: Operation, query: Query = {}, options: { fresh?: boolean; path?: string } = {}): Promise<Exchange> {
    const url = this.http.url(`${options.path ?? op.path}${queryString(query)}`);
    const known = this.memory.get(url);
    if (known?.response && !options.fresh) return known;
    // Work running at once (run/lanes.ts) asking the same query: it is sent once, and both get its answer.
    const asked = this.asking.get(url);
    if (asked && !options.fresh) return asked;
    const sending = this.http.send({ method: 'GET', url, headers: this.headers });
    if (!options.fresh) this.asking.set(url, sending);
    try {
      const ex = await sending;
      if (ex.response) this.memory.set(url, ex);
      return ex;
    } finally {
      if (this.asking.get(url) === sending) this.asking.delete(url);
    }
  }
}
