import "server-only";
import { metrics } from "./registry";

// What the admission queue reports, wherever admission control runs: server.mjs as requests arrive
// (scripts/server/admission.mjs), or the route wrapper when the app runs without it (`next dev`, tests).

/**
 * The header through which server.mjs hands a request's wait for its turn (ms) to the app. server.mjs
 * removes any value a client sent; it is read only when server.mjs admits at accept.
 */
export const ACCEPT_QUEUE_HEADER = "x-memory-hq-queue-ms";
export const ADMITTED_AT_ACCEPT = "__memoryHqAdmittedAtAccept";

/** True under server.mjs, which admits every API request before any other work. */
export function admittedAtAccept(): boolean {
  return (globalThis as Record<string, unknown>)[ADMITTED_AT_ACCEPT] === true;
}

/** How long server.mjs kept this request waiting for its turn, in ms (0 without server.mjs). */
export function acceptQueueMs(req: Request): number {
  if (!admittedAtAccept()) return 0;
  const ms = Number(req.headers.get(ACCEPT_QUEUE_HEADER));
  return Number.isFinite(ms) && ms > 0 ? ms : 0;
}

/** The limits in force: requests served at once, requests that may wait. */
export function admissionLimits(concurrency: number, queue: number): void {
  const m = metrics();
  m.admissionConcurrencyLimit.set(concurrency);
  m.admissionQueueLimit.set(queue);
}

/** The queue's length and the requests being served, after any change to either. */
export function admissionState(queueLength: number, inFlight: number): void {
  const m = metrics();
  m.admissionQueueLength.set(queueLength);
  m.admissionInFlight.set(inFlight);
}

/** A request got its turn after waiting `seconds` (0 when a slot was free). */
export function admissionWaited(seconds: number): void {
  metrics().admissionWait.observe(seconds);
}

export type AdmissionRefusal = "queue_full" | "timeout" | "abandoned";

/** A request that never got its turn. */
export function admissionRejected(reason: AdmissionRefusal): void {
  metrics().admissionRejected.inc({ reason });
}
