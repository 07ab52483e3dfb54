// The kinds of defect issue 29's first batch found the suite missing, or naming as many
// causes, each planted in the reference server as an implementation would have it: in
// every place it can be (a `*` matched literally by every text filter, every expired
// credential accepted), made of the map's own mutants (mutants.ts `combined`). The suite
// must name each as exactly one cause (first-batch.test.ts).
import type { SpecModel } from '../../spec/model.ts';
import { combined, type Mutant, mutantsOf } from './mutants.ts';

export interface BatchKind {
  name: string;
  says: string;
  /** The map's mutants that together are this defect. */
  pick: (m: Mutant) => boolean;
  /** The words of the one cause that must name it. */
  cause: RegExp;
}

const is = (kinds: string[], operator: string) => (m: Mutant) =>
  kinds.includes(m.promise.kind) && m.operator === operator;

export const FIRST_BATCH: readonly BatchKind[] = [
  {
    name: 'CORS * with credentials',
    says: 'Access-Control-Allow-Origin: * on credentialed cross-origin calls (browsers refuse it)',
    pick: is(['cors-grant'], '* with credentials'),
    cause: /Access-Control-Allow-Origin: \* where x-cors allows credentials/,
  },
  {
    name: 'inclusive bound read as strict',
    says: 'every bound filter drops the rows at the bound itself',
    pick: is(['bound'], 'strict'),
    cause: /an inclusive bound is read as strict.*minUsers, maxUsers/,
  },
  {
    name: 'expiry',
    says: 'an expired key or session is accepted on every protected operation',
    pick: is(['auth-expired'], 'accepted'),
    cause: /an expired credential is taken, not refused with 401/,
  },
  {
    name: 'rate-limit headers that never count down',
    says: 'X-RateLimit-Remaining always says the whole limit, on a target that enforces its limits',
    pick: is(['rate-limit-warning'], 'never counts down'),
    cause: /X-RateLimit-Remaining never counted down/,
  },
  {
    name: 'order in both directions',
    says: 'order=asc|desc, which the spec says is ignored, reverses the sort',
    pick: is(['ignored'], 'honoured'),
    cause: /order=(asc|desc) the rows change/,
  },
  {
    name: 'region in another case',
    says: 'region matches only in its enum case',
    pick: (m) => is(['param-any-case'], 'exact case only')(m) && m.promise.subject.name === 'region',
    cause: /answers 400 where the spec says 200: GET \/servers\/find, GET \/metadata\/regions/,
  },
  {
    name: "key listing with each key's secret",
    says: "the key list carries each key's secret",
    pick: is(['field-secret'], 'secret listed'),
    cause: /listApiKeys answers carry each key's secret \(keys\.\*\.secret\)/,
  },
  {
    name: '* matched literally',
    says: 'every text filter matches * as the character, not as a wildcard',
    pick: is(['text-wildcard'], 'literal *'),
    cause: /a \* in a text filter is matched literally/,
  },
  {
    name: "total equal to the page's rows",
    says: 'total counts the rows of the page, not every match',
    pick: is(['total-reached'], 'counts the page'),
    cause: /the total counts the rows of the page/,
  },
  {
    name: 'a field sent as text',
    says: 'the port is sent as text wherever a server is answered',
    pick: (m) => is(['field-type'], 'as text')(m) && m.promise.subject.name === 'ServerCore.port',
    cause: /port must be integer/,
  },
  {
    name: 'nulls left out',
    says: "a server's fields that are null are left out instead of sent as null",
    pick: (m) => is(['field-nullable'], 'null left out')(m) && m.promise.subject.name.startsWith('ServerCore.'),
    cause: /must have property/,
  },
  {
    name: 'case-sensitive text',
    says: 'every text filter compares case-sensitively',
    pick: is(['text-case'], 'case-sensitive'),
    cause: /text filters compare case-sensitively/,
  },
  {
    name: 'naive timestamps',
    says: 'every timestamp is sent without its zone',
    pick: (m) => m.promise.kind === 'field-format' && m.promise.detail.value === 'date-time',
    cause: /must match format "date-time"/,
  },
  {
    name: 'unstable tie order',
    says: 'rows that tie on the sort come in another order from one request to the next',
    pick: is(['sort-tie-break'], 'ties in no stable order'),
    cause: /out of order/,
  },
];

/** Each kind of the first batch as one mutant of the reference server. */
export function firstBatch(model: SpecModel, all: readonly Mutant[] = mutantsOf(model)): Mutant[] {
  return FIRST_BATCH.map((k) => {
    const picked = all.filter(k.pick);
    if (!picked.length) throw new Error(`first batch: no mutant of the map is '${k.name}'`);
    return combined(k.name, k.says, picked);
  });
}
