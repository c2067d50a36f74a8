import "server-only";
import { availableParallelism } from "node:os";
import { getConfig } from "@/lib/config";
import {
  acceptQueueMs,
  admissionLimits,
  admissionRejected,
  admissionState,
  admissionWaited,
  admittedAtAccept,
} from "@/lib/metrics/admission";
import { processWide } from "@/lib/process-wide";
import { callerOf, createAdmission, type Admission, type AdmissionSettings, type Caller, type Refusal } from "@/server/admission.mjs";
import { callerAddress } from "./caller-address";
import { errorBody } from "./errors";

/**
 * The instance's admission control (server/admission.mjs: fair turns per caller, per-caller rate and
 * waiting limits, the instance's concurrency and queue). server.mjs admits every API request through it
 * as the request arrives (it reaches it through the server bridge); without server.mjs (`next dev`,
 * the in-process tests) the route wrapper does, before the handler runs.
 *
 * Everything here is per instance: each instance protects its own connections and counts its own
 * callers' requests (see "Admission" in docs/OPERATIONS.md).
 */
export function admission(): Admission {
  return processWide("admission", () =>
    createAdmission({
      settings: admissionSettings,
      hooks: { state: admissionState, waited: admissionWaited, rejected: admissionRejected, limits: admissionLimits },
    }),
  );
}

/** The ADMISSION_* settings in force. */
export function admissionSettings(): AdmissionSettings {
  const c = getConfig();
  return {
    concurrency: c.ADMISSION_CONCURRENCY ?? (c.DATABASE_URL ? c.DATABASE_POOL_MAX : 4),
    callerConcurrency: c.ADMISSION_CALLER_CONCURRENCY ?? Math.max(2, availableParallelism()),
    queue: c.ADMISSION_QUEUE,
    maxWaitMs: c.ADMISSION_MAX_WAIT_MS,
    caller: { rate: c.ADMISSION_CALLER_RATE, burst: c.ADMISSION_CALLER_BURST, queue: c.ADMISSION_CALLER_QUEUE },
  };
}

/**
 * Who a request comes from, for its place in the queue (unverified: a hash of its bearer token or
 * session cookie, else its address). `address` is the peer's when the server knows it; without it, the
 * trusted forwarded address (TRUST_PROXY).
 */
export function callerOfRequest(headers: Headers, address?: string): Caller {
  return callerOf({
    authorization: headers.get("authorization"),
    cookie: headers.get("cookie"),
    address: address ?? callerAddress(headers),
    adminKey: getConfig().ADMIN_API_KEY,
  });
}

/** The 429 (or 503) of a refused request, in the API's error shape with its headers. */
export function refusalResponse(refusal: Refusal): Response {
  return Response.json(errorBody(refusal.code, refusal.message), { status: refusal.status, headers: refusal.headers });
}

/** Nobody is left to read an answer: the status is for the metrics (nginx's "client closed request"). */
const CLIENT_GONE = 499;

/**
 * Runs `serve` when it is this request's turn; 429 when its caller is over a limit, the queue is full
 * or the wait too long. A request whose caller disconnects while waiting leaves the queue unserved.
 */
export async function admit(req: Request, serve: () => Promise<Response>): Promise<Response> {
  const ticket = admission().arrive(callerOfRequest(req.headers));
  if (ticket.refusal) return refusalResponse(ticket.refusal);
  const signal = req.signal;
  const turn = await new Promise<{ queueMs: number } | { refusal: Refusal } | null>((resolve) => {
    const left = () => {
      ticket.end();
      resolve(null);
    };
    if (signal?.aborted) return left();
    signal?.addEventListener("abort", left, { once: true });
    ticket.wait(
      (queueMs) => {
        signal?.removeEventListener("abort", left);
        resolve({ queueMs: Number(queueMs) });
      },
      (refusal) => {
        signal?.removeEventListener("abort", left);
        resolve({ refusal });
      },
    );
  });
  if (!turn) return new Response(null, { status: CLIENT_GONE });
  if ("refusal" in turn) return refusalResponse(turn.refusal);
  try {
    return await timed(turn.queueMs, serve);
  } finally {
    ticket.end();
  }
}

/**
 * Wraps a route handler in admission control (lib/http/route.ts; `queued` false for one that never
 * waits, such as the health check). Under server.mjs the request was admitted when it arrived, before
 * any other work: the handler runs at once and reports the wait server.mjs measured.
 */
export function admitted<A extends [Request, ...unknown[]]>(queued: boolean, handler: (...args: A) => Promise<Response>) {
  return (...args: A): Promise<Response> => {
    if (queued && !admittedAtAccept()) return admit(args[0], () => handler(...args));
    return timed(acceptQueueMs(args[0]), () => handler(...args));
  };
}

/** How long the request waited for its turn and how long it ran (visible to clients and benches). */
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
