import type { Queryable } from "./types";

/**
 * The size of a long job's next step, so that each holds the database for about `targetMs`. After
 * each step the size moves towards the one that would have taken `targetMs` — by the square root of
 * the ratio, at most halved or doubled per step — so that it settles where a step's fixed cost
 * (its transaction, a function's setup) and its cost per item together take `targetMs`, and one
 * step slowed by something else on a busy machine does not collapse the next ones. Items differ
 * (a 20,000-character turn costs a hundred times a short one): a step of larger items shrinks the
 * next ones within a few steps.
 */
export class StepSize {
  private size: number;

  constructor(private readonly opts: { targetMs: number; first: number; min?: number; max: number }) {
    this.size = this.clamp(opts.first);
  }

  /** Items for the next step. */
  next(): number {
    return this.size;
  }

  /** A step of `items` took `ms`. */
  record(items: number, ms: number) {
    if (items <= 0) return;
    const factor = Math.sqrt(this.opts.targetMs / Math.max(ms, 0.1));
    this.size = this.clamp(Math.round(Math.min(Math.max(items * factor, items / 2), items * 2)));
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
