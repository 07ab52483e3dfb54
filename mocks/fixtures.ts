// Reads fixtures/auth.json: the fake users and credentials the mock knows.
import { readFileSync } from 'node:fs';

export interface FixtureUser {
  id: string;
  name: string;
  email: string;
  /** `paid` callers may page up to 500 rows, everyone else 20 (the spec's `limit` parameter). */
  plan: 'free' | 'paid';
  permissions: string[];
}

export interface FixtureCredential {
  name: string;
  description?: string;
  type: 'apiKey' | 'session';
  value: string;
  /** The owner; absent for a credential nobody issued. */
  user?: string;
  keyId?: string;
  keyName?: string | null;
  createdAt?: string;
  expiresAt?: string | null;
  revoked?: boolean;
  /** What GET /user/apikeys answers for this credential. */
  expect: 200 | 401 | 403;
}

export interface Fixtures {
  sessionCookieName: string;
  users: FixtureUser[];
  credentials: FixtureCredential[];
}

export function loadFixtures(path: string): Fixtures {
  let data: Fixtures;
  try {
    data = JSON.parse(readFileSync(path, 'utf8')) as Fixtures;
  } catch (err) {
    throw new Error(`${path}: cannot read fixtures: ${(err as Error).message}`);
  }
  if (typeof data.sessionCookieName !== 'string' || !Array.isArray(data.users) || !Array.isArray(data.credentials)) {
    throw new Error(`${path}: needs "sessionCookieName", "users" and "credentials"`);
  }
  const userIds = new Set(data.users.map((u) => u.id));
  data.credentials.forEach((c, i) => {
    const where = `${path}: credentials[${i}] (${c.name})`;
    if (c.type !== 'apiKey' && c.type !== 'session') throw new Error(`${where}: type must be "apiKey" or "session"`);
    if (typeof c.value !== 'string' || !c.value.includes('test')) throw new Error(`${where}: value must be a fake secret with a 'test' marker`);
    if (c.user !== undefined && !userIds.has(c.user)) throw new Error(`${where}: unknown user '${c.user}'`);
    if (c.type === 'apiKey' && c.user && !c.keyId) throw new Error(`${where}: an issued key needs a keyId`);
  });
  return data;
}
