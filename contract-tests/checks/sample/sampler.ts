// Pages through the search widely, within the request budget: in every declared sort
// order (and the default), with and without the filters that hide rows by default, and
// through a few combinations of filters. Every page goes to the registry's judges as it
// comes in (its rows against the schema, the limit, the order asked and the filters
// sent), and each page boundary to the `order-across` comparison; what each query showed
// (its totals, the rows it reached, what the judges found) is kept for the verdicts
// (verdicts.ts). The rows seen feed the meaning probes and the pings.
import { orderAcross } from '../../../spec/judges/comparisons.ts';
import type { Finding } from '../../../spec/judges/judge.ts';
import { identityOf, meaningLevel, rowsOf, totalOf } from '../../../spec/judges/rows.ts';
import type { Operation, Parameter, SortOrder } from '../../../spec/model.ts';
import type { Provenance } from '../../../spec/provenance.ts';
import { show, type ShownRequest } from '../../shared/repro.ts';
import type { RunJudging } from '../../run/judging.ts';
import type { Exchange } from '../../transport/transport.ts';
import type { CachedReads } from '../cached-reads.ts';
import type { Predicate } from '../meaning/combinations.ts';
import { describeQuery, type Query, type Row, type SeenRow } from '../meaning/answer-rows.ts';
import type { Server } from '../request-paths.ts';

/**
 * What each page of the sample is judged by: its rows against the schema, the limit, the order asked and the filters
 * sent.
 */
const PAGE_JUDGES = ['schema', 'page', 'order', 'filters', 'counts'];

export interface PagedQuery {
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
  totals: { page: number; total: number; rows: number }[];
  reached: Set<string>;
  lastRow?: Row;
  firstRequest?: ShownRequest;
  /** The request of the first row out of order. */
  firstOutOfOrder?: ShownRequest;
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
  readonly queries: PagedQuery[] = [];
  readonly distinct = new Set<string>();
  /** Invalid rows by identity, with their field paths. */
  readonly invalid = new Map<string, string>();
  /** The schema errors of every invalid row, without the row: what they share (reports/causes.ts). */
  readonly schemaKeys = new Set<string>();
  readonly pageProblems: string[] = [];
  readonly limitParam?: Parameter;
  readonly pageParam?: Parameter;
  readonly sortParam?: Parameter;
  firstInvalidRequest: ShownRequest | undefined;
  pages = 0;
  rows = 0;
  pinged = 0;
  private seeded: Promise<void> | undefined;
  private server: Promise<Server | undefined> | undefined;

  constructor(
    readonly op: Operation,
    private readonly parts: { reads: CachedReads; judging: RunJudging; budgetLeft: () => number },
  ) {
    const byRule = (rule: string) => op.parameters.find((p) => p.meaning?.rule === rule);
    this.limitParam = byRule('limitsRows');
    this.pageParam = byRule('page');
    this.sortParam = byRule('sort');
  }

  get stats(): SampleStats {
    return {
      pages: this.pages,
      rows: this.rows,
      distinct: this.distinct.size,
      invalid: this.invalid.size,
      pinged: this.pinged,
    };
  }

  tieBreak(): string[] {
    const m = this.sortParam?.meaning;
    return m?.rule === 'sort' ? m.tieBreak : [];
  }

  /** The query that shows every row the default query hides (hidden rows, old ones). */
  relaxed(): Query {
    const out: Query = {};
    for (const p of this.op.parameters) {
      if (p.meaning?.rule === 'revealsHidden') out[p.name] = 'true';
      if (p.meaning?.rule === 'ageAtMostDays' && 'default' in p && typeof p.schema.maximum === 'number')
        out[p.name] = String(p.schema.maximum);
    }
    return out;
  }

  private maxLimit(): number {
    return typeof this.limitParam?.schema.maximum === 'number' ? this.limitParam.schema.maximum : 100;
  }

  /** How firm a check of the sort orders is. */
  orderProvenance(): Provenance {
    const m = this.sortParam?.meaning;
    return this.sortParam && m ? meaningLevel(this.op, this.sortParam, m) : this.op.provenance;
  }

  /** The default sort order, when the sort parameter has a default. */
  defaultOrder(): PagedQuery['order'] {
    const m = this.sortParam?.meaning;
    if (!this.sortParam || m?.rule !== 'sort' || !('default' in this.sortParam)) return undefined;
    const name = String(this.sortParam.default);
    const order = m.orders[name];
    return (
      order && {
        name: `the default order (${this.sortParam.name} left out, meaning ${name})`,
        order,
        provenance: this.orderProvenance(),
      }
    );
  }

  add(query: Query, limit: number, label: string, extra: Partial<PagedQuery> = {}): void {
    this.queries.push({
      query,
      limit,
      label,
      nextPage: 1,
      done: false,
      totals: [],
      reached: new Set(),
      orderProblems: [],
      predicateProblems: [],
      rowsSeen: 0,
      ...extra,
    });
  }

  /** A server the target lists: one already seen, or the first of a one-row search (asked once). */
  aServer(): Promise<Server | undefined> {
    return (this.server ??= (async () => {
      let row: Row | undefined = this.seen[0]?.row;
      if (!row && this.limitParam)
        row = rowsOf(
          this.op,
          (await this.parts.reads.get(this.op, { [this.limitParam.name]: '1' })).response?.json,
        )?.[0];
      // A port sent as a string is the search's defect, found there: the ping checks still get a real server.
      const port =
        typeof row?.port === 'number'
          ? row.port
          : typeof row?.port === 'string' && /^\d+$/.test(row.port)
            ? Number(row.port)
            : undefined;
      return typeof row?.address === 'string' && port !== undefined ? { address: row.address, port } : undefined;
    })());
  }

  /**
   * The first page of the default query and of the relaxed one, as wide as the target pages (once): the rows the other
   * checks probe with.
   */
  seed(): Promise<void> {
    return (this.seeded ??= (async () => {
      const order = this.defaultOrder();
      for (const query of [{}, this.relaxed()]) {
        this.add(query, this.maxLimit(), describeQuery(query), order ? { order } : {});
        await this.nextPage(this.queries.at(-1)!);
      }
    })());
  }

  /**
   * Every declared order over the relaxed query, and the combinations, in pages small enough to cross page boundaries.
   */
  plan(combinations: { query: Query; predicates: Predicate[] }[]): void {
    const total = Math.max(0, ...this.queries.map((q) => q.totals[0]?.total ?? 0));
    const min = typeof this.limitParam?.schema.minimum === 'number' ? this.limitParam.schema.minimum : 1;
    const limit = Math.min(this.maxLimit(), Math.max(min, Math.ceil(total / 3)));
    const m = this.sortParam?.meaning;
    const byDefault = this.defaultOrder();
    // The default order again, in pages small enough to have a boundary, if the widest pages have none.
    if (byDefault && this.queries.some((q) => q.done && q.totals.length === 1))
      this.add(this.relaxed(), limit, `${describeQuery(this.relaxed())}, in smaller pages`, { order: byDefault });
    if (this.sortParam && m?.rule === 'sort') {
      for (const [name, order] of Object.entries(m.orders)) {
        const query = { ...this.relaxed(), [this.sortParam.name]: name };
        this.add(query, limit, describeQuery(query), {
          order: { name: `${this.sortParam.name}=${name}`, order, provenance: this.orderProvenance() },
        });
      }
    }
    for (const c of combinations) this.add(c.query, limit, describeQuery(c.query), { predicates: c.predicates });
  }

  /**
   * Pages through every planned query in turn (each its page 1, then each its page 2, ...) until all are done or only
   * `reserve` requests of the budget are left.
   */
  async walk(reserve: number): Promise<void> {
    for (;;) {
      const open = this.queries.filter((q) => !q.done);
      if (!open.length) return;
      for (const q of open) {
        if (this.parts.budgetLeft() <= reserve) return;
        await this.nextPage(q);
      }
    }
  }

  private async nextPage(q: PagedQuery): Promise<void> {
    const page = q.nextPage++;
    const query: Query = { ...q.query };
    if (this.limitParam) query[this.limitParam.name] = String(q.limit);
    if (this.pageParam && page > 1) query[this.pageParam.name] = String(page);
    this.take(q, page, await this.parts.reads.get(this.op, query));
  }

  private take(q: PagedQuery, page: number, ex: Exchange): void {
    const res = ex.response;
    if (ex.skipped) return void (q.done = true);
    const shown = show(ex.request);
    const { request } = shown;
    q.firstRequest ??= shown;
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
    const { verdicts } = this.parts.judging.judged(ex.request, res, PAGE_JUDGES);
    const found = (judge: string) => verdicts.filter((v) => v.judge.name === judge).flatMap((v) => v.findings);
    this.noteSchema(found('schema'), rows, shown);
    for (const f of found('page')) this.pageProblems.push(`${request}: ${f.why}`);
    for (const f of found('filters')) q.predicateProblems.push(`${request}: ${f.why}`);
    const outOfOrder = [...found('order').map((f) => f.why)];
    const sort = this.sortParam;
    if (q.order && q.lastRow && rows[0] && sort) {
      const value = q.query[sort.name] ?? String(sort.default);
      const across = orderAcross.compare(
        this.parts.judging.ctx,
        { op: this.op, param: sort, value },
        q.lastRow,
        rows[0],
      );
      this.parts.judging.compared(orderAcross.name, this.op, sort.name);
      outOfOrder.push(...across.map((f) => f.why));
    }
    if (q.order && outOfOrder.length) {
      q.firstOutOfOrder ??= shown;
      for (const why of outOfOrder) q.orderProblems.push(`${request}: ${why}`);
    }
    const total = totalOf(this.op, res.json);
    if (total !== undefined) q.totals.push({ page, total, rows: rows.length });
    for (const row of rows) {
      const id = identityOf(this.op, row);
      this.distinct.add(id);
      q.reached.add(id);
      this.seen.push({ row, query: q.query });
    }
    q.lastRow = rows.at(-1) ?? q.lastRow;
    q.rowsSeen += rows.length;
    if (page === 1 && total !== undefined && rows.length < Math.min(q.limit, total)) q.pageSize = rows.length;
    // The end is a page short of rows; a full page is asked past even when the total says it was the last
    // (one request more, where a total that counts only the page would end the paging and hide itself).
    if (rows.length < (q.pageSize ?? q.limit) || (total !== undefined && q.rowsSeen > total)) q.done = true;
  }

  /** The schema judge's findings on a page: each invalid row counted once, by who it is. */
  private noteSchema(findings: readonly Finding[], rows: readonly Row[], shown: ShownRequest): void {
    for (const f of findings) {
      for (const key of f.evidence?.schemaErrors ?? []) this.schemaKeys.add(key);
      const indexes = f.evidence?.rows ?? [];
      if (!indexes.length) this.pageProblems.push(`${shown.request}: ${f.why}`);
      for (const i of indexes) {
        const id = identityOf(this.op, rows[i]!);
        if (this.invalid.has(id)) continue;
        this.firstInvalidRequest ??= shown;
        this.invalid.set(id, `${id} (${shown.request.split(' (')[0]}): ${f.why}`);
      }
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
}
