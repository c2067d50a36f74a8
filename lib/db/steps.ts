import { getConfig } from "@/lib/config";
import { sinceInteractiveMs } from "./lanes";
import type { Queryable } from "./types";

/** A request came within this long: bulk steps keep to BULK_STEP_MS; else they may take BULK_IDLE_STEP_MS. */
export const INTERACTIVE_RECENT_MS = 1_000;

/** How long the next bulk step should hold the database, and whether it may take longer when its fixed part alone is over that. */
export interface StepPace {
  targetMs: number;
  stretch: boolean;
}

/**
 * The pace of bulk steps now. While requests come, BULK_STEP_MS, held to even when a step's fixed
 * part is over it (a request that arrives mid-step waits for the step: it waits as little as can be).
 * Once none has come for a second, BULK_IDLE_STEP_MS, and a step whose fixed part is over that may
 * take one and a half times it: an import with nobody else about goes faster, and a request that does
 * come waits for one such step, after which the steps are short again.
 */
export function bulkPace(): StepPace {
  const c = getConfig();
  return sinceInteractiveMs() < INTERACTIVE_RECENT_MS
    ? { targetMs: c.BULK_STEP_MS, stretch: false }
    : { targetMs: Math.max(c.BULK_STEP_MS, c.BULK_IDLE_STEP_MS), stretch: true };
}

/** Steps remembered to estimate a step's fixed cost and its cost per item. */
const WINDOW = 16;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/**
 * The size of a long job's next step, so that each holds the database for about `targetMs` (by
 * default `bulkPace()`).
 *
 * A step costs a fixed part (its transaction, a function's setup, the statements it always runs) plus
 * a part per item. Both are estimated from the last steps — robustly, by the median of the slopes
 * between steps of different sizes (Theil–Sen), so that a step slowed by something else on a busy
 * machine moves neither — and the next step is the size that takes `targetMs`. When the fixed part
 * alone takes more than two thirds of that and the pace allows (no request about, see bulkPace), a
 * step takes one and a half times its fixed part instead: shrinking it further would hold the
 * database just as long for fewer items, and the job would hold it far longer in all. The size moves
 * at most by half or double per step. Items differ (a 20,000-character turn costs a hundred times a
 * short one): a step of larger items shrinks the next ones within a few steps.
 */
export class StepSize {
  private size: number;
  private readonly steps: { items: number; ms: number }[] = [];
  private fixedMs = 0;

  /** `targetMs`: a step's length (a fixed part over it stretches it); by default `bulkPace()` at each step. */
  constructor(private readonly opts: { targetMs?: number; first: number; min?: number; max: number }) {
    this.size = this.clamp(opts.first);
  }

  /** Items for the next step. */
  next(): number {
    return this.size;
  }

  /** A step of `items` took `ms`. */
  record(items: number, ms: number) {
    if (items <= 0) return;
    this.steps.push({ items, ms: Math.max(ms, 0.01) });
    if (this.steps.length > WINDOW) this.steps.shift();
    const slopes: number[] = [];
    for (let i = 0; i < this.steps.length; i++) {
      for (let j = i + 1; j < this.steps.length; j++) {
        const a = this.steps[i]!;
        const b = this.steps[j]!;
        if (a.items !== b.items) slopes.push((b.ms - a.ms) / (b.items - a.items));
      }
    }
    // steps all of one size tell the total apart from its parts no better than the last estimate
    const slope = slopes.length ? Math.max(0, median(slopes)) : 0;
    if (slopes.length) this.fixedMs = Math.max(0, median(this.steps.map((s) => s.ms - slope * s.items)));
    // the last steps' cost per item over the fixed part: larger items than before shrink the next
    // step at once, smaller ones grow it only as the estimate over the whole window agrees
    const recent = median(this.steps.slice(-3).map((s) => (s.ms - Math.min(this.fixedMs, s.ms * 0.9)) / s.items));
    const perItem = Math.max(1e-3, slope, recent);
    const pace = this.opts.targetMs === undefined ? bulkPace() : { targetMs: this.opts.targetMs, stretch: true };
    const budget = pace.stretch ? Math.max(pace.targetMs, 1.5 * this.fixedMs) : pace.targetMs;
    const wanted = (budget - this.fixedMs) / perItem;
    this.size = this.clamp(Math.round(Math.min(Math.max(wanted, items / 2), items * 2)));
  }

  private clamp(n: number) {
    return Math.max(this.opts.min ?? 1, Math.min(this.opts.max, Math.floor(n)));
  }
}

/** How often a long job that holds a lease (a batch or an import being stored) renews it. */
export const LEASE_RENEW_MS = 5_000;

/** Thrown by a leased step whose lease was taken from it (the job was given up meanwhile). */
export class LeaseLost extends Error {
  constructor() {
    super("the lease of this job ran out: it was given up");
  }
}

/**
 * Runs a job's steps under its lease: every LEASE_RENEW_MS, `renew` goes out with a step's work,
 * in the same round trip (answering false once the job was given up, e.g. its lease ran out while
 * its process was stopped). Between renewals a job given up is noticed by its steps themselves.
 */
export function leased(renew: (tx: Queryable) => Promise<boolean>) {
  let renewedAt = Date.now();
  return async <T>(tx: Queryable, fn: () => Promise<T>): Promise<T> => {
    if (Date.now() - renewedAt < LEASE_RENEW_MS) return fn();
    const [renewed, done] = await Promise.allSettled([renew(tx), fn()]);
    if (renewed.status === "fulfilled" && !renewed.value) throw new LeaseLost();
    if (renewed.status === "rejected") throw renewed.reason;
    if (done.status === "rejected") throw done.reason;
    renewedAt = Date.now();
    return done.value;
  };
}
