// Who a request acts for, once its credential is found valid: what authorization,
// the rate limits and the handlers know of the caller.
import type { FixtureUser } from '../../../fixtures/load.ts';
import type { SchemeKind } from '../../../spec/model.ts';

export interface Principal {
  user: FixtureUser;
  /** The security scheme that authenticated it (also its rate-limit tier). */
  scheme: string;
  kind: SchemeKind;
  /** Rate-limit key: the account, shared by all of its keys and sessions (the spec's limits are per account). */
  id: string;
}
