// API keys and sessions, kept the way a real service should keep secrets: only a
// SHA-256 hash is stored, found by a short non-secret prefix, and compared in
// constant time, so neither a memory dump nor response timing gives a secret away.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FixtureCredential } from '../fixtures/load.ts';

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
  revoked: boolean;
}

export interface SessionRecord extends Stored {
  userId: string;
  expiresAt: number | null;
}

export class KeyStore {
  private readonly index = new SecretIndex<ApiKeyRecord>();
  private readonly records: ApiKeyRecord[] = [];

  /** `fixtures`: the credentials of the spec's bearer scheme; the ones nobody issued are skipped. */
  constructor(fixtures: FixtureCredential[]) {
    for (const c of fixtures) {
      if (!c.user || !c.keyId) continue;
      this.insert(c.value, {
        id: c.keyId,
        userId: c.user,
        name: c.keyName ?? null,
        createdAt: Date.parse(c.createdAt ?? '2026-01-01T00:00:00.000Z'),
        expiresAt: c.expiresAt ? Date.parse(c.expiresAt) : null,
        lastUsedAt: null,
        revoked: Boolean(c.revoked),
      });
    }
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
    if (!record || record.revoked || (record.expiresAt !== null && record.expiresAt <= now)) return undefined;
    record.lastUsedAt = now;
    return record;
  }

  /** A user's keys that are not revoked, newest first. */
  list(userId: string): ApiKeyRecord[] {
    return this.records
      .filter((r) => r.userId === userId && !r.revoked)
      .sort((a, b) => b.createdAt - a.createdAt || a.id.localeCompare(b.id));
  }

  create(userId: string, name: string | null, expiresInDays: number | null, now: number): { record: ApiKeyRecord; secret: string } {
    const secret = `sls_test_${randomBytes(20).toString('hex')}`;
    const record = this.insert(secret, {
      id: `key_${randomBytes(6).toString('hex')}`,
      userId,
      name,
      createdAt: now,
      expiresAt: expiresInDays === null ? null : now + expiresInDays * 86_400_000,
      lastUsedAt: null,
      revoked: false,
    });
    return { record, secret };
  }

  /** Revokes one of the user's own keys; false when the user has no such key. */
  revoke(userId: string, id: string): boolean {
    const record = this.records.find((r) => r.id === id && r.userId === userId && !r.revoked);
    if (!record) return false;
    record.revoked = true;
    return true;
  }
}

export class SessionStore {
  private readonly index = new SecretIndex<SessionRecord>();

  /** `fixtures`: the credentials of the spec's cookie scheme; the ones nobody issued are skipped. */
  constructor(fixtures: FixtureCredential[]) {
    for (const c of fixtures) {
      if (c.user) this.add(c.value, c.user, c.expiresAt ? Date.parse(c.expiresAt) : null);
    }
  }

  private add(secret: string, userId: string, expiresAt: number | null): void {
    this.index.add({ prefix: secret.slice(0, PREFIX_LENGTH), hash: hash(secret), userId, expiresAt });
  }

  authenticate(secret: string, now: number): SessionRecord | undefined {
    const record = this.index.find(secret);
    return record && (record.expiresAt === null || record.expiresAt > now) ? record : undefined;
  }

  /** A development login: a fresh session for the user. */
  create(userId: string, now: number, ttlMs: number): { secret: string; expiresAt: number } {
    const secret = `sess_test_${randomBytes(20).toString('hex')}`;
    const expiresAt = now + ttlMs;
    this.add(secret, userId, expiresAt);
    return { secret, expiresAt };
  }

  end(secret: string): boolean {
    const record = this.index.find(secret);
    if (record) this.index.remove(record);
    return Boolean(record);
  }
}
