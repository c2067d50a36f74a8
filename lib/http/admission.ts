import "server-only";
import { getConfig } from "@/lib/config";
import {
  acceptQueueMs,
  admissionLimits,
  admissionRejected,
  admissionState,
  admissionWaited,
  admittedAtAccept,
  type AdmissionRefusal,
} from "@/lib/metrics/admission";
import { errorBody } from "./errors";
import { processWide } from "@/lib/process-wide";

/**
 * Admission control for the API: at most ADMISSION_CONCURRENCY requests of this instance run at once
 * (about what its database connections can serve; the embedded database runs one transaction at a
 * time), the rest wait in one first-come-first-served queue. Under overload every request therefore
 * waits about as long as the others instead of some starving behind repeated newcomers, and once
 * ADMISSION_QUEUE requests are waiting a newcomer is refused at once with 429 and a Retry-After
 * estimated from the recent service time. A request that waited ADMISSION_MAX_WAIT_MS is refused the
 * same way rather than served after its caller gave up. A caller that disconnects leaves the queue.
 *
 * The queue is per instance: each instance protects its own connections; instances share nothing
 * here, so it stays correct with any number of them.
 */

interface Waiter {
  /** null: admitted; otherwise why the request leaves the queue without a turn */
  resolve: (refusal: AdmissionRefusal | null) => void;
  timer: ReturnType<typeof setTimeout>;
}

interface State {
  running: number;
  queue: Waiter[];
  /** exponentially weighted mean service time in ms */
  serviceMs: number;
}

const state = processWide<State>("admission", () => ({ running: 0, queue: [], serviceMs: 50 }));

/** ADMISSION_CONCURRENCY, ADMISSION_QUEUE and ADMISSION_MAX_WAIT_MS as in force. */
export function admissionSettings() {
  const c = getConfig();
  return {
    concurrency: c.ADMISSION_CONCURRENCY ?? (c.DATABASE_URL ? c.DATABASE_POOL_MAX : 4),
    queue: c.ADMISSION_QUEUE,
    maxWaitMs: c.ADMISSION_MAX_WAIT_MS,
  };
}

function retryAfterSeconds(concurrency: number): number {
  return Math.max(1, Math.ceil(((state.queue.length + 1) * state.serviceMs) / concurrency / 1000));
}

function busy(concurrency: number, why: string): Response {
  return Response.json(errorBody("rate_limited", `The server is busy (${why}); retry later`), {
    status: 429,
    headers: { "retry-after": String(retryAfterSeconds(concurrency)) },
  });
}

function release() {
  const next = state.queue.shift();
  if (next) {
    clearTimeout(next.timer);
    next.resolve(null); // the slot passes straight to the oldest waiter
  } else {
    state.running -= 1;
  }
  admissionState(state.queue.length, state.running);
}

/** Runs `serve` when it is this request's turn; 429 when the queue is full or the wait too long. */
export async function admit(signal: AbortSignal | undefined, serve: () => Promise<Response>): Promise<Response> {
  const { concurrency, queue, maxWaitMs } = admissionSettings();
  admissionLimits(concurrency, queue);
  const arrived = performance.now();
  if (state.running < concurrency && state.queue.length === 0) {
    state.running += 1;
    admissionState(state.queue.length, state.running);
  } else {
    if (state.queue.length >= queue) {
      admissionRejected("queue_full");
      return busy(concurrency, "queue full");
    }
    const refusal = await new Promise<AdmissionRefusal | null>((resolve) => {
      const waiter: Waiter = {
        resolve,
        timer: setTimeout(() => leave(waiter, "timeout"), maxWaitMs),
      };
      const leave = (w: Waiter, why: AdmissionRefusal) => {
        const i = state.queue.indexOf(w);
        if (i >= 0) state.queue.splice(i, 1);
        admissionState(state.queue.length, state.running);
        resolve(why);
      };
      state.queue.push(waiter);
      admissionState(state.queue.length, state.running);
      signal?.addEventListener("abort", () => {
        clearTimeout(waiter.timer);
        leave(waiter, "abandoned");
      }, { once: true });
    });
    if (refusal) {
      admissionRejected(refusal);
      return busy(concurrency, "waited too long for a turn");
    }
  }
  const started = performance.now();
  admissionWaited((started - arrived) / 1000);
  try {
    const res = await serve();
    // how long the request waited for its turn and how long it ran (visible to clients and benches)
    try {
      res.headers.set("server-timing", `queue;dur=${(started - arrived).toFixed(1)}, app;dur=${(performance.now() - started).toFixed(1)}`);
    } catch {
      /* a response with immutable headers goes out without it */
    }
    return res;
  } finally {
    state.serviceMs = state.serviceMs * 0.9 + (performance.now() - started) * 0.1;
    release();
  }
}

/**
 * Wraps a route handler in admission control (lib/http/route.ts). Under server.mjs the request was
 * admitted when it arrived, before any other work (server/admission.mjs): the handler runs
 * at once and reports the wait server.mjs measured.
 */
export function admitted<A extends [Request, ...unknown[]]>(handler: (...args: A) => Promise<Response>) {
  return (...args: A): Promise<Response> => {
    if (!admittedAtAccept()) return admit(args[0].signal, () => handler(...args));
    return timed(acceptQueueMs(args[0]), () => handler(...args));
  };
}

async function timed(queueMs: number, serve: () => Promise<Response>): Promise<Response> {
  const started = performance.now();
  const res = await serve();
  try {
    res.headers.set("server-timing", `queue;dur=${queueMs.toFixed(1)}, app;dur=${(performance.now() - started).toFixed(1)}`);
  } catch {
    /* a response with immutable headers goes out without it */
  }
  return res;
}
