// What a judge is: a small pure function of one exchange (exchange.ts) and the spec,
// giving findings, and what a finding holds. A judge never sends anything, never renders
// text for a report beyond its own words, and keeps nothing between exchanges that could
// change a verdict: what some remember (a request's reading, a string that leaks nothing,
// a compiled schema) is a bounded cache of work already done, and the same exchange gets
// the same findings with it or without. The suite, the proxy and the mock each own sending,
// budgets and reporting, and hand every exchange to the same judges (registry.ts), as
// Schemathesis' checks are small functions its engine calls.
import type { Operation, SpecModel } from '../model.ts';
import { within, type Provenance } from '../provenance.ts';
import type { Exchange, SentRequest } from './exchange.ts';
import { readRequest, type RequestReading } from './reading.ts';
import { Schemas } from './schemas.ts';

/** What a failure is about, as fields a report groups on. */
export interface Subject {
  parameter?: string;
  /** A field of the body or of its rows (`results.*.port`, `keys.*.secret`). */
  field?: string;
  header?: string;
}

/** What failures of one defect share besides their defect's words. */
export interface Evidence {
  /** A 5xx answer's status and first line, what varies taken out: one crash met by many requests. */
  crash?: string;
  /** Body-schema errors without row indices (`body.results.*.port must be integer`). */
  schemaErrors?: string[];
  /** The media type that came back where JSON was promised. */
  wrongType?: string;
  /** Declared headers the answer lacked. */
  missingHeaders?: string[];
  /** The status the spec says the request should have had. */
  expectedStatus?: number;
  /** The indexes of the rows (of the operation's rows property) an error was found in. */
  rows?: number[];
  /** A secret that leaked, what and where, in words every failure of it shares (secret-leak.ts). */
  leak?: string;
}

export interface Finding {
  /** The judge's name in the registry (`auth`, `schema`, ...). */
  judge: string;
  /** The softest part of the spec the broken promise rests on. */
  level: Provenance;
  /** What is wrong with this exchange, for people, values included. */
  why: string;
  /** What the spec wants instead, for people. */
  expected?: string;
  /** What was probably meant, for people (`did you mean 'sort'?`): a request judge's near miss. */
  hint?: string;
  /** The defect in words every failure of it shares, no values of one exchange: causes group on it. */
  defect: string;
  subject?: Subject;
  /**
   * Whether the defect reads the same whichever subject it is met on (`the target accepts
   * values the spec refuses`): then failures on many parameters are one cause. Otherwise a
   * failure with a subject is a cause of that subject's.
   */
  acrossSubjects?: boolean;
  evidence?: Evidence;
}

/** Readings of requests kept by their text (their memory is a few KiB each). */
const RECENT_READINGS = 512;

/**
 * What a judge reads besides the exchange: the spec, the level it judges at, the compiled schemas, the reading of the
 * request.
 */
export class JudgeContext {
  private static readonly made = new WeakMap<SpecModel, Map<Provenance, JudgeContext>>();

  /** The context of a model at a level, made once. */
  static of(model: SpecModel, level: Provenance = 'assumed'): JudgeContext {
    let byLevel = JudgeContext.made.get(model);
    if (!byLevel) JudgeContext.made.set(model, (byLevel = new Map()));
    let ctx = byLevel.get(level);
    if (!ctx) byLevel.set(level, (ctx = new JudgeContext(model, level)));
    return ctx;
  }

  private compiled?: Schemas;
  /**
   * Where a request's reading is kept on the request itself, for this context (a hidden field: no WeakMap to grow and
   * sweep).
   */
  private readonly slot = Symbol('reading');
  /**
   * Readings of bodiless requests by what they read (a proxy meets the same request again and again), most recent last.
   */
  private readonly recent = new Map<string, RequestReading>();

  private constructor(
    readonly model: SpecModel,
    /** The softest promise judged: findings about softer parts of the spec are not made. */
    readonly level: Provenance,
  ) {}

  /** The spec's schemas compiled at this level, on first use (the mock's request judges never need them). */
  get schemas(): Schemas {
    return (this.compiled ??= Schemas.of(this.model, this.level));
  }

  /** Whether a promise this firm is judged at this context's level. */
  wants(level: Provenance): boolean {
    return within(level, this.level);
  }

  /**
   * The request read against the spec, once per request object. `remember: false` keeps the
   * reading off the recent ones, for a caller that remembers what the judges found itself.
   */
  read(ex: Pick<Exchange, 'request'>, options?: { remember?: boolean }): RequestReading {
    const request = ex.request as SentRequest & { [slot: symbol]: RequestReading | undefined };
    let reading = request[this.slot];
    if (reading) return reading;
    // Everything a reading reads of a request without a body: the same text is the same reading.
    const h = request.headers;
    const key =
      options?.remember !== false && request.body === undefined
        ? `${request.method}\u0000${request.target}\u0000${h.authorization ?? ''}\u0000${h.cookie ?? ''}\u0000` +
          (h['content-type'] ?? '')
        : undefined;
    reading = key === undefined ? undefined : this.recent.get(key);
    if (!reading) {
      reading = readRequest(this, request);
      if (key !== undefined) {
        if (this.recent.size >= RECENT_READINGS) this.recent.delete(this.recent.keys().next().value!);
        this.recent.set(key, reading);
      }
    }
    request[this.slot] = reading;
    return reading;
  }

  /** The operation of an exchange, if it is one. */
  operation(ex: Pick<Exchange, 'request'>): Operation | undefined {
    return this.read(ex).op;
  }
}

export interface Judge {
  /** Its name in the registry: what a finding and a report's row carry. */
  name: string;
  /** The promise it holds a target to, for people: the row a report files its verdicts under. */
  promise: string;
  /**
   * The extensions of the spec whose promises it holds (`x-cors`): the promise map
   * (spec/promises.ts) lists an extension no kind reads as held by the judges naming it.
   */
  holds?: readonly string[];
  /** Whether it has anything to judge in this exchange (a pass is counted only where it applies). */
  applies(ex: Exchange, ctx: JudgeContext): boolean;
  /** How firm its promise is on this exchange, for a pass (a failure carries its own level). */
  level(ex: Exchange, ctx: JudgeContext): Provenance;
  judge(ex: Exchange, ctx: JudgeContext): Finding[];
}

/** Declares a judge: the registry's entries are written with it, so each reads the same. */
export function judge(j: Judge): Judge {
  return j;
}
