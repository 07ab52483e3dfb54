// Every API key the suite creates is written down when its answer comes in (the ledger
// watches every answer, Dredd's too, so no check has to remember) and crossed off when a
// revocation of it succeeds; the run removes whatever is still open at its end, even
// when a check failed or the run was stopped. Each key is named after the run and
// expires in a day, so even one the cleanup could not reach dies on its own. The ledger
// lives in memory: it holds secrets (a key may revoke itself) and is never printed.
import type { Operation } from '../../spec/model.ts';
import type { HttpRequest, HttpResponse } from '../transport/http.ts';
import type { Transport } from '../transport/transport.ts';
import type { Subject } from './answer-log.ts';
import type { CredentialSet } from './credentials.ts';
import { valueAt, type KeyLifecycle } from './key-lifecycle.ts';
import { rememberSecret } from './mask.ts';

export interface CreatedKey {
  id: string;
  /** Kept so the key can revoke itself ("a key may revoke itself") if no other credential can. */
  secret?: string;
}

export interface LedgerParts {
  http: Transport;
  credentials: CredentialSet;
  lifecycle: KeyLifecycle | undefined;
  runId: string;
}

export class KeyLedger {
  readonly lifecycle: KeyLifecycle | undefined;
  private readonly keys = new Map<string, CreatedKey>();

  constructor(private readonly parts: LedgerParts) {
    this.lifecycle = parts.lifecycle;
  }

  /** The body the suite creates keys with: a name that marks the key as the run's, and an expiry of a day. */
  newKeyBody(): { name: string; expires_in_days: number } {
    return { name: `contract-test-${this.parts.runId}`, expires_in_days: 1 };
  }

  /** The key a create answer holds, by the spec's pointers. */
  keyIn(json: unknown): CreatedKey | undefined {
    const lc = this.lifecycle;
    const id = lc && valueAt(json, lc.idPointer);
    if (!lc || typeof id !== 'string') return undefined;
    const secret = lc.secretPointer ? valueAt(json, lc.secretPointer) : undefined;
    return { id, ...(typeof secret === 'string' ? { secret } : {}) };
  }

  /** Sees every answer: a key created is written down, a key revoked crossed off. */
  observe(subject: Operation | Subject, request: HttpRequest, response: HttpResponse): void {
    const lc = this.lifecycle;
    if (!lc || response.status < 200 || response.status >= 300) return;
    if (subject === lc.create) {
      const key = this.keyIn(response.json);
      if (!key) return;
      rememberSecret(key.secret);
      this.keys.set(key.id, key);
    } else if (lc.revoke && subject === lc.revoke.op) {
      const id = this.idInPath(request.url);
      if (id !== undefined) this.keys.delete(id);
    }
  }

  private idInPath(url: string): string | undefined {
    const op = this.lifecycle!.revoke!.op;
    const [before, after] = op.path.split(`{${this.lifecycle!.revoke!.param}}`);
    const path = this.parts.http.relative(url).split('?')[0] ?? '';
    if (after === undefined || !path.startsWith(before!) || !path.endsWith(after)) return undefined;
    return decodeURIComponent(path.slice(before!.length, path.length - after.length));
  }

  /** Whether the headers carry a key the run created and has not removed (its user's: the limits count it so). */
  carries(headers: Record<string, string> | undefined): boolean {
    const sent = Object.values(headers ?? {}).join('\n');
    return [...this.keys.values()].some((k) => k.secret !== undefined && sent.includes(k.secret));
  }

  /** Keys created and not yet removed. */
  open(): CreatedKey[] {
    return [...this.keys.values()];
  }

  revokePath(id: string): string | undefined {
    const revoke = this.lifecycle?.revoke;
    return revoke?.op.path.replace(`{${revoke.param}}`, encodeURIComponent(id));
  }

  /** A fresh key of the run's user, for a check that needs one to aim at. */
  async create(): Promise<CreatedKey | undefined> {
    const create = this.lifecycle?.create;
    const headers = create && this.parts.credentials.forOperation(create);
    if (!create || !headers) return undefined;
    const ex = await this.parts.http.send({
      method: create.method,
      url: this.parts.http.url(create.path),
      headers,
      body: this.newKeyBody(),
    });
    return ex.response && ex.response.status < 300 ? this.keyIn(ex.response.json) : undefined;
  }

  /** Removes a key: with the run's credentials, else with the key itself. True once it is gone. */
  async remove(key: CreatedKey): Promise<boolean> {
    const revoke = this.lifecycle?.revoke?.op;
    const path = this.revokePath(key.id);
    if (!revoke || !path) return false;
    const attempts = [
      this.parts.credentials.forOperation(revoke),
      key.secret ? this.parts.credentials.bearer(key.secret) : undefined,
    ].filter(Boolean);
    for (const headers of attempts) {
      // Cleanup is never refused for want of budget, nor because the run was stopped.
      const ex = await this.parts.http.send(
        { method: revoke.method, url: this.parts.http.url(path), headers },
        { essential: true },
      );
      if (ex.response && ex.response.status >= 200 && ex.response.status < 300) {
        this.keys.delete(key.id);
        return true;
      }
    }
    return false;
  }

  /** Removes every open key; returns those that could not be. */
  async removeAll(): Promise<CreatedKey[]> {
    const left: CreatedKey[] = [];
    for (const key of this.open()) if (!(await this.remove(key))) left.push(key);
    return left;
  }
}
