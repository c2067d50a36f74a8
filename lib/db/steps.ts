/**
 * The size of a long job's next step, so that each holds the database for about `targetMs`: the
 * job measures each step and the next takes as many items as the recent cost per item allows
 * (between `min` and `max`). Items differ (a 20,000-character turn costs a hundred times a short
 * one), so the estimate follows the last steps closely, and a step that ran long shrinks the next.
 */
export class StepSize {
  private perItemMs: number | null = null;

  constructor(
    private readonly opts: { targetMs: number; first: number; min?: number; max: number },
  ) {}

  /** Items for the next step. */
  next(): number {
    const min = this.opts.min ?? 1;
    if (this.perItemMs === null) return Math.max(min, Math.min(this.opts.first, this.opts.max));
    return Math.max(min, Math.min(this.opts.max, Math.floor(this.opts.targetMs / Math.max(this.perItemMs, 0.001))));
  }

  /** A step of `items` took `ms`. */
  record(items: number, ms: number) {
    if (items <= 0) return;
    const cost = ms / items;
    // a slower step counts at once (the next must not overrun too); a faster one half
    this.perItemMs = this.perItemMs === null || cost > this.perItemMs ? cost : (this.perItemMs + cost) / 2;
  }
}

/**
 * Runs `step` over `items` in slices sized by `size`, one after the other; `step` returns how long
 * its database work took (or undefined to count the whole call).
 */
export async function inSteps<T>(items: T[], size: StepSize, step: (slice: T[]) => Promise<number | void>): Promise<void> {
  for (let at = 0; at < items.length; ) {
    const slice = items.slice(at, at + size.next());
    const started = performance.now();
    const took = await step(slice);
    size.record(slice.length, typeof took === "number" ? took : performance.now() - started);
    at += slice.length;
  }
}
