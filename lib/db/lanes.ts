import { processWide } from "@/lib/process-wide";
import { interactiveRequests, onNoInteractiveRequest } from "./activity";

/**
 * Two lanes to the database's connections: interactive work (every request's statements and
 * transactions) and bulk work (imports, re-embedding, consolidation, counter folds: the steps of
 * long jobs). A bulk step starts only while no interactive operation is waiting for a connection,
 * and bulk work holds at most `bulkConnections` connections at once. The embedded database serves
 * one connection, so a bulk step there is one short transaction between requests — it starts only
 * while no API request is in progress (`yieldToRequests`): a request waits behind at most the one
 * step already running when it arrived, never behind a queue of them nor one between two of its
 * own statements.
 *
 * A bulk step that has waited `maxWaitMs` goes ahead of interactive work once, so a job still
 * progresses under a load that never pauses.
 */
export interface LaneSettings {
  /** connections bulk work may hold at once (1 on the embedded database) */
  bulkConnections: number;
  /**
   * a bulk step also waits while an interactive API request is in progress (lib/db/activity.ts): on
   * the embedded database, where a request's statements share the one connection with bulk steps and
   * a step between two of them would hold the request up at each
   */
  yieldToRequests?: boolean;
  /** a bulk step waits at most this long for interactive work to pause */
  maxWaitMs?: number;
}

export type Lane = "interactive" | "bulk";

export const BULK_MAX_WAIT_MS = 250;

/** When interactive work last asked for a connection, in this process (performance.now()). */
const pace = processWide("interactivePace", () => ({ lastAt: -Infinity }));

/** Milliseconds since interactive work last asked for a connection in this process. */
export function sinceInteractiveMs(): number {
  return performance.now() - pace.lastAt;
}

interface Waiter {
  since: number;
  go: () => void;
}

export class Lanes {
  /** interactive operations asked for that hold no connection yet */
  private waiting = 0;
  private bulkHeld = 0;
  private readonly queue: Waiter[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  private unsubscribe: (() => void) | null = null;
  readonly bulkConnections: number;
  private readonly maxWaitMs: number;
  private readonly yieldToRequests: boolean;

  constructor(settings: LaneSettings) {
    this.bulkConnections = Math.max(1, Math.floor(settings.bulkConnections));
    this.maxWaitMs = settings.maxWaitMs ?? BULK_MAX_WAIT_MS;
    this.yieldToRequests = settings.yieldToRequests ?? false;
  }

  /**
   * An interactive operation asks for a connection; call the returned function once it holds one
   * (or failed). Bulk steps wait meanwhile.
   */
  interactive(): () => void {
    this.waiting++;
    pace.lastAt = performance.now();
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.waiting--;
      this.wake();
    };
  }

  /** Runs one bulk step once it is bulk work's turn; `fn` takes its connection itself. */
  async bulk<T>(fn: () => Promise<T>): Promise<T> {
    if (!this.mayStart(0)) {
      await new Promise<void>((go) => {
        this.queue.push({ since: Date.now(), go });
        this.wake();
      });
    } else {
      this.bulkHeld++;
    }
    try {
      return await fn();
    } finally {
      this.bulkHeld--;
      this.wake();
    }
  }

  /** What waits now (tests and metrics). */
  get state() {
    return { interactiveWaiting: this.waiting, bulkHeld: this.bulkHeld, bulkWaiting: this.queue.length };
  }

  private mayStart(waitedMs: number): boolean {
    if (this.bulkHeld >= this.bulkConnections) return false;
    if (waitedMs >= this.maxWaitMs) return true;
    return this.waiting === 0 && (!this.yieldToRequests || interactiveRequests() === 0);
  }

  private wake() {
    while (this.queue.length && this.mayStart(Date.now() - this.queue[0]!.since)) {
      const next = this.queue.shift()!;
      this.bulkHeld++;
      next.go();
    }
    // while steps wait, the end of the last request in progress is a moment to look again
    if (this.yieldToRequests && this.queue.length && !this.unsubscribe) this.unsubscribe = onNoInteractiveRequest(() => this.wake());
    if (!this.queue.length && this.unsubscribe) {
      this.unsubscribe();
      this.unsubscribe = null;
    }
    this.arm();
  }

  /** While steps wait behind interactive work, look again when the oldest has waited its limit. */
  private arm() {
    // a step that ends wakes the next one itself
    if (this.timer || !this.queue.length || this.bulkHeld >= this.bulkConnections) return;
    const due = Math.max(0, this.queue[0]!.since + this.maxWaitMs - Date.now());
    this.timer = setTimeout(() => {
      this.timer = null;
      this.wake();
    }, due + 1);
    this.timer.unref?.();
  }
}
