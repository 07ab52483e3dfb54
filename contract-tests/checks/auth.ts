// `auth:` the whole auth matrix of a protected operation, from the spec: no
// credentials, an unknown key, a malformed Authorization header and an unknown session
// cookie; the forbidden credential; each valid credential. The family only chooses and
// sends them, saying what it knows of each credential the wire does not show (a key it
// made up is unknown, the forbidden one lacks the permission); the registry's `auth` and
// `success` judges say what each is owed (401, 403 where `x-credentials` excludes its
// scheme, the success), and `schema` holds the 401 and 403 bodies to the exact texts.
import type { Known } from '../../spec/judges/exchange.ts';
import { STATUS_JUDGES } from '../../spec/judges/registry.ts';
import type { Operation } from '../../spec/model.ts';
import { weakest, type Provenance } from '../../spec/provenance.ts';
import type { CredentialVariant } from '../shared/credentials.ts';
import type { CreatedKey } from '../shared/key-ledger.ts';
import type { CheckResult } from '../shared/recorder.ts';
import { skip } from './skip.ts';
import { successPath } from './request-paths.ts';
import { family, type GivenFor } from './run-parts.ts';

const NEEDS = ['spec', 'scope', 'judging', 'credentials', 'http', 'keys'] as const;
type Run = GivenFor<typeof NEEDS>;

interface Case {
  variant: CredentialVariant;
  label: string;
  status: number;
  provenance: Provenance;
  /** Why it cannot run, if it cannot. */
  missing?: string;
  /** A case the run may leave out without failing --strict (an expired credential is optional). */
  optional?: boolean;
}

/** The cases of an operation's matrix, each as firm as the parts of the spec it rests on. */
export function matrixCases(op: Operation, run: Pick<Run, 'spec' | 'credentials' | 'judging'>): Case[] {
  const { spec, credentials } = run;
  const schemes = weakest(...op.schemes.map((name) => spec.schemes.get(name)?.provenance));
  // A 401 or 403 on this operation relies on the operation itself as much as on the schemes.
  const authRules = weakest(op.provenance, schemes, run.judging.ctx.schemas.errorBodyLevel());
  const variants = op.schemes.map((s) => credentials.variantForScheme(s));
  const cases: Case[] = [{ variant: 'none', label: 'no credentials', status: 401, provenance: authRules }];
  if (variants.includes('apiKey')) {
    cases.push({ variant: 'unknownKey', label: 'an unknown API key', status: 401, provenance: authRules });
    cases.push({
      variant: 'malformed',
      label: "a malformed Authorization header (no 'Bearer')",
      status: 401,
      provenance: authRules,
    });
  }
  if (variants.includes('session'))
    cases.push({ variant: 'unknownSession', label: 'an unknown session cookie', status: 401, provenance: authRules });
  // An expired credential (optional: a target's QA gives one when it has one; the mock's fixtures do).
  for (const [variant, scheme, label, env] of [
    ['expiredKey', 'apiKey', 'an expired API key', 'CONTRACT_EXPIRED_API_KEY'],
    ['expiredSession', 'session', 'an expired session cookie', 'CONTRACT_EXPIRED_SESSION_COOKIE'],
  ] as const) {
    if (!variants.includes(scheme)) continue;
    const missing = credentials.headers(variant) ? undefined : `optional: set ${env} to check it`;
    cases.push({ variant, label, status: 401, provenance: authRules, optional: true, ...(missing ? { missing } : {}) });
  }
  if (op.permission) {
    const missing = credentials.headers('forbidden')
      ? undefined
      : 'no forbidden principal: set CONTRACT_FORBIDDEN_API_KEY';
    cases.push({
      variant: 'forbidden',
      label: `a valid key without the '${op.permission}' permission`,
      status: 403,
      provenance: authRules,
      ...(missing ? { missing } : {}),
    });
  }
  for (const scheme of op.schemes) {
    const variant = credentials.variantForScheme(scheme);
    if (!variant) continue;
    const allowed = op.allowedSchemes.includes(scheme);
    const missing = credentials.headers(variant)
      ? undefined
      : `no ${variant === 'apiKey' ? 'API key: set CONTRACT_API_KEY' : 'session: set CONTRACT_SESSION_COOKIE'}`;
    cases.push({
      variant,
      label:
        `a valid ${variant === 'apiKey' ? 'API key' : 'session'}` +
        (allowed ? '' : ` (x-credentials allows only ${op.allowedSchemes.join(', ')})`),
      status: allowed ? op.successStatus : 403,
      provenance: weakest(op.provenance, schemes),
      ...(missing ? { missing } : {}),
    });
  }
  return cases;
}

/** What the suite knows of each credential it sends that the wire does not show. */
const KNOWN: Record<CredentialVariant, Known | undefined> = {
  none: undefined,
  malformed: undefined,
  unknownKey: { credential: 'unknown' },
  unknownSession: { credential: 'unknown' },
  expiredKey: { credential: 'expired' },
  expiredSession: { credential: 'expired' },
  forbidden: { credential: 'forbidden' },
  apiKey: { credential: 'valid' },
  session: { credential: 'valid' },
};

/** What an auth case is about: the status its credential is owed (the bodies are the schema's). */
const ABOUT = STATUS_JUDGES;

/** Every case against the operation; an operation on one key gets a key of the suite's own to aim at. */
async function authMatrix(op: Operation, run: Run): Promise<CheckResult[]> {
  const { scope, keys, http } = run;
  const blocked = scope.writesBlocked(op);
  const revokes = op === keys.lifecycle?.revoke?.op;
  const out: CheckResult[] = [];
  let victim: CreatedKey | undefined;
  for (const c of matrixCases(op, run)) {
    const check = `auth: ${c.label} -> ${c.status}`;
    if (!scope.wants(c.provenance)) continue;
    if (blocked || c.missing) {
      const optional = !blocked && c.optional;
      out.push(...skip(scope, { op, check, level: c.provenance, reason: (blocked ?? c.missing)!, optional }));
      continue;
    }
    let path = successPath(op, undefined);
    if (revokes) {
      // Aim at a real key of ours, so a server that skips the check really would revoke it.
      victim ??= await keys.create();
      if (!victim) {
        out.push(
          ...skip(scope, {
            op,
            check,
            level: c.provenance,
            reason: 'could not create a key to aim at (the session cannot create keys)',
          }),
        );
        continue;
      }
      path = keys.revokePath(victim.id)!;
    }
    const body = op === keys.lifecycle?.create ? keys.newKeyBody() : undefined;
    const exchange = await http.send({
      method: op.method,
      url: http.url(path),
      headers: run.credentials.headers(c.variant),
      body,
    });
    out.push(run.judging.case({ op, check, level: c.provenance, about: ABOUT, known: KNOWN[c.variant] }, exchange));
    // A revocation that went through used the key up: the next case needs a fresh one.
    if (revokes && exchange.response && exchange.response.status < 300) victim = undefined;
  }
  return out;
}

export const authFamily = family({
  name: 'auth',
  needs: NEEDS,
  perOperation: async (op, run) => (op.schemes.length ? authMatrix(op, run) : []),
});
