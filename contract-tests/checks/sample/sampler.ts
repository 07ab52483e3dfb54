// Samples the data widely, within the request budget: pages through the search in every
// declared sort order (and the default), with and without the filters that hide rows by
// default, and through a few combinations of filters; validates every row against the
// spec; checks each order within and across pages, that `total` stays the same on
// every page and equals the rows paging reaches; then pings a sample of the servers it
// found through both ping forms. Rows that break the schema in a few percent of the
// data, never on page 1, are found here.
import type { ValidateFunction } from 'ajv';
import type { Operation, Parameter, SortOrder } from '../../spec/model.ts';
import { weakest, type Provenance } from '../../spec/provenance.ts';
import { SchemaValidator, describeErrors } from '../../spec/validator.ts';
import { describeRequest, schemaErrorKeys, type Exchange, type SuiteContext } from './context.ts';
import { toJsonSchema } from '../../spec/json-schema.ts';
import { combinationName, meaningProvenance, totalOf } from './meanings.ts';
import { orderProblem } from './orders.ts';
import type { Reader } from './reader.ts';
import { ROW_RULES, type RowMeaning, type RowRule } from './row-rules.ts';
import { describeQuery, identityOf, rowsOf, type Query, type Row, type SeenRow } from './rows.ts';

/** Problems listed per check; the rest are counted. */
const LISTED = 5;

interface Predicate {
  param: Parameter;
  meaning: RowMeaning;
  value: string;
}

interface PagedQuery {
  query: Query;
  limit: number;
  label: string;
  /** The order its rows must come in, with the name of that order for people. */
  order?: { name: string; order: SortOrder; provenance: Provenance };
  /** Filters every row must satisfy (a combination). */
  predicates?: Predicate[];
  nextPage: number;
  done: boolean;
  /** Rows per page the target really serves (it may cut `limit` to the caller's plan). */
  pageSize?: number;
  totals: { page: number; total: number }[];
  reached: Set<string>;
  lastRow?: Row;
  firstRequest?: string;
  orderProblems: string[];
  predicateProblems: string[];
  rowsSeen: number;
}

export interface SampleStats {
  pages: number;
  rows: number;
  distinct: number;
  invalid: number;
  pinged: number;
}

export class Sampler {
  readonly seen: SeenRow[] = [];
  private readonly queries: PagedQuery[] = [];
  private readonly distinct = new Set<string>();
  private readonly invalid = new Map<string, string>();
  /** The schema errors of every invalid row, without the row: what they share (lib/causes.ts). */
  private readonly schemaKeys = new Set<string>();
  private firstInvalidRequest: string | undefined;
  private pages = 0;
  private rows = 0;
  private pinged = 0;
  private readonly pageProblems: string[] = [];
  private readonly limitParam?: Parameter;
  private readonly pageParam?: Parameter;
  private readonly sortParam?: Parameter;
  private readonly validate: ValidateFunction | undefined;

  constructor(private readonly ctx: SuiteContext, private readonly reader: Reader, readonly op: Operation) {
    const byRule = (rule: string) => op.parameters.find((p) => p.meaning?.rule === rule);
    this.limitParam = byRule('limitsRows');
    this.pageParam = byRule('page');
    this.sortParam = byRule('sort');
    const schema = op.responses.get(op.successStatus)?.schema;
    if (schema) {
      const { $schema: _ignored, ...rest } = toJsonSchema(ctx.model.doc, schema, ctx.config.provenance);
      this.validate = new SchemaValidator(ctx.model.doc).compile(rest);
    }
  }

  /** Whether any of the sample's checks is within the run's --provenance (else its requests would be wasted). */
  wanted(): boolean {
    const { op, ctx } = this;
    const levels = [weakest(op.provenance, op.rows?.provenance)];
    for (const p of op.parameters) if (p.meaning && (p.meaning.rule === 'page' || p.meaning.rule === 'sort' || p.meaning.rule in ROW_RULES)) levels.push(meaningProvenance(op, p, p.meaning));
    return levels.some((l) => ctx.wants(l));
  }

  get stats(): SampleStats {
    return { pages: this.pages, rows: this.rows, distinct: this.distinct.size, invalid: this.invalid.size, pinged: this.pinged };
  }

  /** The query that shows every row the default query hides (hidden rows, old ones). */
  private relaxed(): Query {
    const out: Query = {};
    for (const p of this.op.parameters) {
      if (p.meaning?.rule === 'revealsHidden') out[p.name] = 'true';
      if (p.meaning?.rule === 'ageAtMostDays' && 'default' in p && typeof p.schema.maximum === 'number') out[p.name] = String(p.schema.maximum);
    }
    return out;
  }

  private maxLimit(): number {
    return typeof this.limitParam?.schema.maximum === 'number' ? this.limitParam.schema.maximum : 100;
  }

  private defaultOrder(): PagedQuery['order'] {
    const m = this.sortParam?.meaning;
    if (!this.sortParam || m?.rule !== 'sort' || !('default' in this.sortParam)) return undefined;
    const name = String(this.sortParam.default);
    const order = m.orders[name];
    return order && { name: `the default order (${this.sortParam.name} left out, meaning ${name})`, order, provenance: meaningProvenance(this.op, this.sortParam, m) };
  }

  private add(query: Query, limit: number, label: string, extra: Partial<PagedQuery> = {}): PagedQuery {
    const q: PagedQuery = { query, limit, label, nextPage: 1, done: false, totals: [], reached: new Set(), orderProblems: [], predicateProblems: [], rowsSeen: 0, ...extra };
    this.queries.push(q);
    return q;
  }

  /** The first page of the default query and of the relaxed one, as wide as the target pages: the rows the other checks probe with. */
  async seed(): Promise<void> {
    const order = this.defaultOrder();
    for (const query of [{}, this.relaxed()]) {
      const q = this.add(query, this.maxLimit(), describeQuery(query), order ? { order } : {});
      await this.nextPage(q);
    }
  }

  /** Every declared order over the relaxed query, and the combinations, in pages small enough to cross page boundaries. */
  plan(combinations: { query: Query; predicates: Predicate[] }[]): void {
    const total = Math.max(0, ...this.queries.map((q) => q.totals[0]?.total ?? 0));
    const min = typeof this.limitParam?.schema.minimum === 'number' ? this.limitParam.schema.minimum : 1;
    const limit = Math.min(this.maxLimit(), Math.max(min, Math.ceil(total / 3)));
    const m = this.sortParam?.meaning;
    const byDefault = this.defaultOrder();
    // The default order again, in pages small enough to have a boundary, if the widest pages have none.
    if (byDefault && this.queries.some((q) => q.done && q.totals.length === 1)) this.add(this.relaxed(), limit, `${describeQuery(this.relaxed())}, in smaller pages`, { order: byDefault });
    if (this.sortParam && m?.rule === 'sort') {
      for (const [name, order] of Object.entries(m.orders)) {
        const query = { ...this.relaxed(), [this.sortParam.name]: name };
        this.add(query, limit, describeQuery(query), { order: { name: `${this.sortParam.name}=${name}`, order, provenance: meaningProvenance(this.op, this.sortParam, m) } });
      }
    }
    for (const c of combinations) this.add(c.query, limit, describeQuery(c.query), { predicates: c.predicates });
  }

  /** Pages through every planned query in turn (each its page 1, then each its page 2, ...) until all are done or only `reserve` requests of the budget are left. */
  async walk(reserve: number): Promise<void> {
    for (;;) {
      const open = this.queries.filter((q) => !q.done);
      if (!open.length) return;
      for (const q of open) {
        if (this.ctx.budget.left() <= reserve) return;
        await this.nextPage(q);
      }
    }
  }

  private async nextPage(q: PagedQuery): Promise<void> {
    const page = q.nextPage++;
    const query: Query = { ...q.query };
    if (this.limitParam) query[this.limitParam.name] = String(q.limit);
    if (this.pageParam && page > 1) query[this.pageParam.name] = String(page);
    const ex = await this.reader.get(this.op, query);
    this.take(q, page, ex);
  }

  private take(q: PagedQuery, page: number, ex: Exchange): void {
    const res = ex.response;
    if (ex.skipped) return void (q.done = true);
    const request = describeRequest(this.ctx.config.baseUrl, ex.request);
    q.firstRequest ??= request;
    if (!res || res.status !== this.op.successStatus) {
      this.pageProblems.push(`${request}: ${res ? `status ${res.status}` : `no answer (${ex.error})`}`);
      return void (q.done = true);
    }
    const rows = rowsOf(this.op, res.json);
    if (!rows) {
      this.pageProblems.push(`${request}: the body has no '${this.op.rows?.property}' array`);
      return void (q.done = true);
    }
    this.pages++;
    this.rows += rows.length;
    this.checkSchema(res.json, rows, request);
    if (rows.length > q.limit) this.pageProblems.push(`${request}: ${rows.length} rows, more than ${this.limitParam?.name}=${q.limit}`);
    const total = totalOf(this.op, res.json);
    if (total !== undefined) q.totals.push({ page, total });
    const now = Date.parse(res.headers.date ?? '') || Date.now();
    for (const row of rows) {
      const id = identityOf(this.op, row);
      this.distinct.add(id);
      q.reached.add(id);
      this.seen.push({ row, query: q.query });
      if (q.order && q.lastRow) {
        const problem = orderProblem(q.order.order, this.tieBreak(), q.lastRow, row);
        if (problem) q.orderProblems.push(`${request}: ${identityOf(this.op, row)} after ${identityOf(this.op, q.lastRow)}${row === rows[0] ? ' (across the page boundary)' : ''}: ${problem}`);
      }
      q.lastRow = row;
      for (const p of q.predicates ?? []) {
        if (!(ROW_RULES[p.meaning.rule] as RowRule).holds(p.meaning, row, p.value, now)) {
          q.predicateProblems.push(`${request}: ${identityOf(this.op, row)} breaks ${p.param.name}=${p.value} (${(ROW_RULES[p.meaning.rule] as RowRule).says(p.meaning, p.value)})`);
        }
      }
    }
    q.rowsSeen += rows.length;
    if (page === 1 && total !== undefined && rows.length < Math.min(q.limit, total)) q.pageSize = rows.length;
    const size = q.pageSize ?? q.limit;
    if (rows.length < size || (total !== undefined && q.rowsSeen >= total)) q.done = true;
  }

  private tieBreak(): string[] {
    const m = this.sortParam?.meaning;
    return m?.rule === 'sort' ? m.tieBreak : [];
  }

  /** Every row against the spec's row schema; errors are grouped by row, with their field paths. */
  private checkSchema(body: unknown, rows: Row[], request: string): void {
    if (!this.validate || this.validate(body)) return;
    for (const key of schemaErrorKeys(this.validate.errors)) this.schemaKeys.add(key);
    const property = this.op.rows?.property;
    const byRow = new Map<number, string[]>();
    for (const e of this.validate.errors ?? []) {
      const m = new RegExp(`^/${property}/(\\d+)(/.*)?$`).exec(e.instancePath);
      if (!m) {
        this.pageProblems.push(`${request}: ${describeErrors([e], 'body')}`);
        continue;
      }
      const i = Number(m[1]);
      byRow.set(i, [...(byRow.get(i) ?? []), describeErrors([{ ...e, instancePath: m[2] ?? '' }], `${property}[${i}]`)]);
    }
    for (const [i, problems] of byRow) {
      const id = identityOf(this.op, rows[i]!);
      if (this.invalid.has(id)) continue;
      this.firstInvalidRequest ??= request;
      this.invalid.set(id, `${id} (${request.split(' (')[0]}): ${problems.join('; ')}`);
    }
  }

  /** The sample's verdicts. */
  async record(): Promise<void> {
    const { ctx, op } = this;
    // Every row is validated against the whole schema the run's level keeps: the check is as firm as its softest part.
    const rowsProvenance = weakest(op.provenance, op.rows?.provenance, ctx.schemaLevel(op, op.successStatus));
    if (ctx.wants(rowsProvenance)) {
      const name = `sample: every row of every sampled page matches the spec's schema`;
      const share = this.distinct.size ? ((100 * this.invalid.size) / this.distinct.size).toFixed(1) : '0';
      const listed = [...this.invalid.values()].slice(0, LISTED);
      ctx.recorder.record({
        operationId: op.operationId, check: name, provenance: rowsProvenance, status: this.invalid.size ? 'fail' : this.pages ? 'pass' : 'skip',
        request: this.firstInvalidRequest, expected: `every row valid (${this.rows} rows in ${this.pages} pages, ${this.distinct.size} distinct)`,
        actual: this.invalid.size ? `${this.invalid.size} of ${this.distinct.size} distinct rows (${share}%) invalid` : undefined,
        message: this.invalid.size ? `first ${listed.length}: ${listed.join(' | ')}` : this.pages ? undefined : 'no page was sampled',
        ...(this.invalid.size ? { evidence: { schemaErrors: [...this.schemaKeys] } } : {}),
      });
      ctx.recorder.record({
        operationId: op.operationId, check: `sample: every sampled page answers ${op.successStatus} with at most ${this.limitParam?.name ?? 'limit'} rows`,
        provenance: rowsProvenance, status: this.pageProblems.length ? 'fail' : 'pass',
        message: this.pageProblems.length ? `${this.pageProblems.length} problem(s): ${this.pageProblems.slice(0, LISTED).join(' | ')}` : undefined,
      });
    }
    await this.recordTotals();
    this.recordOrders();
    this.recordCombinations();
  }

  private async recordTotals(): Promise<void> {
    const { ctx, op } = this;
    const page = this.pageParam?.meaning;
    if (!this.pageParam || page?.rule !== 'page') return;
    const provenance = meaningProvenance(op, this.pageParam, page);
    if (!ctx.wants(provenance)) return;
    const moving: string[] = [];
    const unreached: string[] = [];
    let movingRequest: string | undefined;
    let unreachedRequest: string | undefined;
    let paged = 0;
    let exhausted = 0;
    for (const q of this.queries.filter((x) => x.totals.length >= 1)) {
      const first = q.totals[0]!.total;
      const other = q.totals.find((t) => t.total !== first);
      if (q.totals.length > 1) paged++;
      if (other) {
        // A live target's count may move between two requests (an age window slides with the clock; a
        // big listing has rows crossing its edge every second): ask page 1 again before calling it a
        // defect. Page 1 itself changed: the count moves with time, not with the page.
        const again = await this.reader.get(op, { ...q.query, ...(this.limitParam ? { [this.limitParam.name]: String(q.limit) } : {}) }, { fresh: true });
        const now = totalOf(op, again.response?.json);
        if (now !== other.total && now === first) {
          moving.push(`${q.label}: ${page.total} ${first} on page 1, ${other.total} on page ${other.page}${now === undefined ? '' : ` (page 1 again: ${now})`}`);
          movingRequest ??= q.firstRequest;
        }
        continue;
      }
      if (!q.done || q.predicates) continue;
      exhausted++;
      if (q.reached.size !== first) {
        unreached.push(`${q.label}: ${page.total} is ${first} but paging (${q.totals.length} pages of ${q.pageSize ?? q.limit}) reached ${q.reached.size} distinct rows`);
        unreachedRequest ??= q.firstRequest;
      }
    }
    const list = (xs: string[]) => `${xs.slice(0, LISTED).join(' | ')}${xs.length > LISTED ? ` (and ${xs.length - LISTED} more)` : ''}`;
    if (paged) {
      ctx.recorder.record({ operationId: op.operationId, check: `sample: ${page.total} is the same on every page of a query`, provenance, status: moving.length ? 'fail' : 'pass', request: movingRequest, expected: `the same ${page.total} on every page`, message: moving.length ? list(moving) : `${paged} queries paged` });
    } else ctx.skip(op, `sample: ${page.total} is the same on every page of a query`, provenance, 'no query got a second page within the budget');
    const name = `sample: ${page.total} equals the rows reachable by paging`;
    if (exhausted) ctx.recorder.record({ operationId: op.operationId, check: name, provenance, status: unreached.length ? 'fail' : 'pass', request: unreachedRequest, expected: `as many distinct rows over all pages as ${page.total} says`, message: unreached.length ? list(unreached) : `${exhausted} queries paged to their end` });
    else ctx.skip(op, name, provenance, 'no query was paged to its end within the budget (raise --budget)');
  }

  private recordOrders(): void {
    const { ctx, op } = this;
    for (const q of this.queries.filter((x) => x.order)) {
      const { name, order, provenance } = q.order!;
      if (!ctx.wants(provenance)) continue;
      const pages = q.totals.length || (q.rowsSeen ? 1 : 0);
      const check = `sort: ${q.label}: rows in ${name}: ${order.field} ${order.direction === 'asc' ? 'ascending' : 'descending'}${this.tieBreak().length ? `, ties by ${this.tieBreak().join(', ')}` : ''}, within and across pages`;
      if (q.orderProblems.length) {
        ctx.recorder.record({ operationId: op.operationId, check, provenance, status: 'fail', request: q.firstRequest, expected: `every row after the one before it in ${name}`, message: `${q.orderProblems.length} out of order: ${q.orderProblems.slice(0, LISTED).join(' | ')}` });
      } else if (pages < 2 && !q.done) ctx.skip(op, check, provenance, 'only one page fetched within the budget: no page boundary to check');
      else ctx.recorder.record({ operationId: op.operationId, check, provenance, status: pages ? 'pass' : 'skip', message: pages ? `${q.rowsSeen} rows in ${pages} pages` : 'no page fetched' });
    }
  }

  private recordCombinations(): void {
    const { ctx, op } = this;
    for (const q of this.queries.filter((x) => x.predicates)) {
      const provenance = weakest(...q.predicates!.map((p) => meaningProvenance(op, p.param, p.meaning)));
      if (!ctx.wants(provenance)) continue;
      const check = combinationName(q.predicates!);
      const problems = [...q.predicateProblems];
      // Each pair was taken from one seen row, which satisfies both: an empty answer lost it.
      if (q.totals.length && q.rowsSeen === 0) problems.push(`${q.firstRequest}: no row, though a row seen before satisfies every filter`);
      if (!q.firstRequest) ctx.skip(op, check, provenance, 'not paged within the budget');
      else ctx.recorder.record({ operationId: op.operationId, check, provenance, status: problems.length ? 'fail' : 'pass', request: q.firstRequest, expected: 'every row satisfies every filter', message: problems.length ? `${problems.length} problem(s): ${problems.slice(0, LISTED).join(' | ')}` : `${q.rowsSeen} rows` });
    }
  }

  /** Distinct servers spread over the sample, for the ping checks. */
  pickServers(count: number): Row[] {
    const byId = new Map<string, Row>();
    for (const s of this.seen) byId.set(identityOf(this.op, s.row), s.row);
    const all = [...byId.values()];
    const step = Math.max(1, Math.floor(all.length / count));
    return all.filter((_r, i) => i % step === 0).slice(0, count);
  }

  notePinged(n: number): void {
    this.pinged += n;
  }
}
