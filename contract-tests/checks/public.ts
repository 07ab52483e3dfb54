// `public:` credentials on a public endpoint do not break it (rate limits are per
// account, so clients send their key everywhere): the family sends each of the run's
// credentials, and a key nobody issued, to each public operation; the
// `public-credentials` and `success` judges say the answer must still succeed (a bad
// credential on a public operation is answered as anonymous).
import { STATUS_JUDGES } from '../../spec/judges/registry.ts';
import type { Operation } from '../../spec/model.ts';
import type { CheckResult } from '../shared/recorder.ts';
import { skip } from './skip.ts';
import { pingsOneServer, successPath } from './request-paths.ts';
import { family, type GivenFor } from './run-parts.ts';

const NEEDS = ['scope', 'judging', 'credentials', 'http', 'sample'] as const;
type Run = GivenFor<typeof NEEDS>;

async function publicWithCredentials(op: Operation, run: Run): Promise<CheckResult[]> {
  const { scope, credentials, http } = run;
  if (op.schemes.length || !scope.wants(op.provenance)) return [];
  const server = run.sample ? await run.sample.aServer() : undefined;
  const out: CheckResult[] = [];
  const words = { apiKey: 'a valid API key', session: 'a valid session', unknownKey: 'an unknown API key' };
  for (const variant of ['apiKey', 'session', 'unknownKey'] as const) {
    const check = `public: a request with ${words[variant]} still succeeds`;
    const headers = credentials.headers(variant);
    // A ping succeeds only for a server the target lists: without one, the spec's example would be a 404 of the data,
    // not of the credentials.
    const why = !headers
      ? `no ${variant === 'session' ? 'CONTRACT_SESSION_COOKIE' : 'CONTRACT_API_KEY'}`
      : pingsOneServer(op) && !server
        ? 'no server the search lists (with an address and a port) to ping'
        : undefined;
    if (why) {
      out.push(...skip(scope, { op, check, level: op.provenance, reason: why }));
      continue;
    }
    const exchange = await http.send({ method: op.method, url: http.url(successPath(op, server)), headers });
    const credential = variant === 'unknownKey' ? ({ credential: 'unknown' } as const) : {};
    out.push(
      run.judging.case(
        { op, check, level: op.provenance, about: STATUS_JUDGES, known: { exists: true, ...credential } },
        exchange,
      ),
    );
  }
  return out;
}

export const publicFamily = family({ name: 'public', needs: NEEDS, perOperation: publicWithCredentials });
