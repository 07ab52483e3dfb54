// API keys and sessions, kept the way a real service should keep secrets: only a
// SHA-256 hash is stored, found by a short non-secret prefix, and compared in
// constant time, so neither a memory dump nor response timing gives a secret away.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FixtureCredential } from '../../../fixtures/load.ts';

const PREFIX_LENGTH = 13; // "sls_test_" + 4 characters

function hash(secret: string): Buffer {
  return createHash('sha256').update(secret).digest();
}

interface Stored {
  prefix: string;
  hash: Buffer;
}

/** Secrets indexed by prefix; `find` hashes the candidate and compares in constant time. */
class SecretIndex<T extends Stored> {
  private readonly byPrefix = new Map<string, T[]>();

  add(record: T): void {
    const list = this.byPrefix.get(record.prefix) ?? [];
    list.push(record);
    this.byPrefix.set(record.prefix, list);
  }

  remove(record: T): void {
    const list = this.byPrefix.get(record.prefix)?.filter((r) => r !== record) ?? [];
    if (list.length) this.byPrefix.set(record.prefix, list);
    else this.byPrefix.delete(record.prefix);
  }

  find(secret: string): T | undefined {
    const candidates = this.byPrefix.get(secret.slice(0, PREFIX_LENGTH));
    if (!candidates) return undefined;
    const h = hash(secret);
    let found: T | undefined;
    // Compare against every candidate so the time does not depend on which one matched.
    for (const c of candidates) if (timingSafeEqual(c.hash, h)) found = c;
    return found;
  }
}

export interface ApiKeyRecord extends Stored {
  id: string;
  userId: string;
  name: string | null;
  createdAt: number;
  expiresAt: number | null;
  lastUsedAt: number | null;
}

export interface SessionRecord extends Stored {
  userId: string;
  expiresAt: number | null;
  /** A fixture session (fixtures/auth.json): never ended by the login cap. */
  fixture: boolean;
}

/**
 * API keys. A revoked key is deleted, not flagged: it answers 401 like a key nobody
 * issued, and create-and-revoke cycles leave nothing behind. Live keys are bounded by
 * the spec's per-user cap, which the create handler enforces.
 */
export class KeyStore {
  private readonly index = new SecretIndex<ApiKeyRecord>();
  private readonly records: ApiKeyRecord[] = [];

  /**
   * `fixtures`: the credentials of the spec's bearer scheme; the ones nobody issued, or that were revoked, are skipped.
   */
  constructor(fixtures: FixtureCredential[]) {
    for (const c of fixtures) {
      if (!c.user || !c.keyId || c.revoked) continue;
      this.insert(c.value, {
        id: c.keyId,
        userId: c.user,
        name: c.keyName ?? null,
        createdAt: Date.parse(c.createdAt ?? '2026-01-01T00:00:00.000Z'),
        expiresAt: c.expiresAt ? Date.parse(c.expiresAt) : null,
        lastUsedAt: null,
      });
    }
  }

  /** How many keys are stored, of every user. */
  get size(): number {
    return this.records.length;
  }

  private insert(secret: string, fields: Omit<ApiKeyRecord, 'prefix' | 'hash'>): ApiKeyRecord {
    const record: ApiKeyRecord = { ...fields, prefix: secret.slice(0, PREFIX_LENGTH), hash: hash(secret) };
    this.records.push(record);
    this.index.add(record);
    return record;
  }

  /** The live key for this secret: not unknown, revoked or expired. */
  authenticate(secret: string, now: number): ApiKeyRecord | undefined {
    const record = this.index.find(secret);
    if (!record || (record.expiresAt !== null && record.expiresAt <= now)) return undefined;
    record.lastUsedAt = now;
    return record;
  }

  /** A user's keys (expired ones too), newest first. */
  list(userId: string): ApiKeyRecord[] {
    return this.records
      .filter((r) => r.userId === userId)
      .sort((a, b) => b.createdAt - a.createdAt || a.id.localeCompare(b.id));
  }

  create(
    userId: string,
    name: string | null,
    expiresInDays: number | null,
    now: number,
  ): { record: ApiKeyRecord; secret: string } {
    const secret = `sls_test_${randomBytes(20).toString('hex')}`;
    const record = this.insert(secret, {
      id: `key_${randomBytes(6).toString('hex')}`,
      userId,
      name,
      createdAt: now,
      expiresAt: expiresInDays === null ? null : now + expiresInDays * 86_400_000,
      lastUsedAt: null,
    });
    return { record, secret };
  }

  /** Revokes (deletes) one of the user's own keys; false when the user has no such key. */
  revoke(userId: string, id: string): boolean {
    const at = this.records.findIndex((r) => r.id === id && r.userId === userId);
    if (at === -1) return false;
    this.index.remove(this.records[at]!);
    this.records.splice(at, 1);
    return true;
  }
}

/**
 * The most sessions development logins keep per user; a login past it ends that user's
 * oldest login session. Logins are free to call, so without a cap a loop of them would
 * grow the mock without end. The fixture sessions are not counted and never ended by
 * it: a test suite that logs in before every test must not log out `valid-session`.
 */
export const MAX_SESSIONS_PER_USER = 1000;

export class SessionStore {
  private readonly index = new SecretIndex<SessionRecord>();
  /** How many fixture sessions are live (logging out ends one until a reset). */
  private fixtures = 0;
  /** Each user's development-login sessions, oldest first (the fixtures are in no list). */
  private readonly byUser = new Map<string, SessionRecord[]>();

  /** `fixtures`: the credentials of the spec's cookie scheme; the ones nobody issued are skipped. */
  constructor(fixtures: FixtureCredential[]) {
    for (const c of fixtures) {
      if (!c.user) continue;
      this.index.add(this.record(c.value, c.user, c.expiresAt ? Date.parse(c.expiresAt) : null, true));
      this.fixtures++;
    }
  }

  /** How many sessions are stored, of every user. */
  get size(): number {
    let n = this.fixtures;
    for (const list of this.byUser.values()) n += list.length;
    return n;
  }

  private record(secret: string, userId: string, expiresAt: number | null, fixture: boolean): SessionRecord {
    return { prefix: secret.slice(0, PREFIX_LENGTH), hash: hash(secret), userId, expiresAt, fixture };
  }

  private remove(record: SessionRecord): void {
    this.index.remove(record);
    if (record.fixture) {
      this.fixtures--;
      return;
    }
    const list = this.byUser.get(record.userId)?.filter((r) => r !== record) ?? [];
    if (list.length) this.byUser.set(record.userId, list);
    else this.byUser.delete(record.userId);
  }

  authenticate(secret: string, now: number): SessionRecord | undefined {
    const record = this.index.find(secret);
    return record && (record.expiresAt === null || record.expiresAt > now) ? record : undefined;
  }

  /**
   * A development login: a fresh session for the user; their expired login sessions go, and past the cap their oldest.
   */
  create(userId: string, now: number, ttlMs: number): { secret: string; expiresAt: number } {
    for (const r of this.byUser.get(userId) ?? []) if (r.expiresAt !== null && r.expiresAt <= now) this.remove(r);
    const list = this.byUser.get(userId) ?? [];
    for (let i = 0; i <= list.length - MAX_SESSIONS_PER_USER; i++) this.remove(list[i]!);
    const secret = `sess_test_${randomBytes(20).toString('hex')}`;
    const expiresAt = now + ttlMs;
    const record = this.record(secret, userId, expiresAt, false);
    this.index.add(record);
    const own = this.byUser.get(userId);
    if (own) own.push(record);
    else this.byUser.set(userId, [record]);
    return { secret, expiresAt };
  }

  end(secret: string): boolean {
    const record = this.index.find(secret);
    if (record) this.remove(record);
    return Boolean(record);
  }
}
