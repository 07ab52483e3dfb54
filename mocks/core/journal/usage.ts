// What a consumer used, counted as the mock answers it (`--consumer`, createMock's
// `consumer`): each request to the API goes into one UsageAccumulator
// (spec/usage-profile.ts), which keeps counts, kinds of values, enum values and numbers'
// range, never a header's value or free text. Unlike the journal (a ring of the last
// requests, emptied by reset) the profile counts every request since the mock started,
// so a whole test run is one profile: a reset between tests does not clear it
// (`DELETE /__mock/usage` does). Off unless a consumer is named: the mock's throughput
// pays nothing for it then.
import type { Context } from 'hono';
import type { Operation } from '../../../spec/model.ts';
import { UsageAccumulator, usageNoteFor, usageNoteOf } from '../../../spec/usage-profile.ts';
import type { AppEnv } from '../env.ts';
import type { MockState } from '../state.ts';

/** What wrote a profile of the mock's (`recordedBy`). */
export const RECORDED_BY = 'mock';

/** A new, empty profile of `consumer`. */
export function usageOf(state: MockState, consumer: string): UsageAccumulator {
  return new UsageAccumulator(consumer, { recordedBy: RECORDED_BY, model: state.model });
}

/**
 * Notes one answered request; `op` is the operation it routed to, undefined for one refused
 * before routing (a 429, a 413), which is read again from its path (a path the API does
 * not have is nobody's use). `status` is undefined when no answer was sent (a fault).
 */
export function noteUsage(
  usage: UsageAccumulator,
  state: MockState,
  c: Context<AppEnv>,
  op: Operation | undefined,
  status: number | undefined,
): void {
  const headers: Record<string, string> = {};
  const authorization = c.req.header('authorization');
  if (authorization !== undefined) headers.authorization = authorization;
  const cookie = c.req.header('cookie');
  if (cookie !== undefined) headers.cookie = cookie;
  const parsed = c.get('body');
  const body = parsed !== undefined ? parsed : c.get('bodyText');
  const request = { method: c.req.method, url: c.req.url, headers, ...(body !== undefined ? { body } : {}) };
  const note = op ? usageNoteFor(state.model, op, request, status) : usageNoteOf(state.model, request, status);
  if (!note) return;
  note.at = state.now();
  usage.note(note);
}
