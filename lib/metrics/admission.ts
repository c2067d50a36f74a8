import "server-only";
import type { CallerKind, RefusalReason } from "@/server/admission.mjs";
import { SEAM_GLOBALS, SEAM_HEADERS } from "@/server/seam.mjs";
import { metrics } from "./registry";

// What the admission queue reports (server/admission.mjs), wherever it runs: in server.mjs as requests
// arrive, or in the route wrapper when the app runs without it (`next dev`, tests). Labels name the
// kind of caller only — never an id, a key or anything a caller wrote.

/** True under server.mjs, which admits every API request before any other work. */
export function admittedAtAccept(): boolean {
  return (globalThis as Record<string, unknown>)[SEAM_GLOBALS.admittedAtAccept] === true;
}

/**
 * How long server.mjs kept this request waiting for its turn, in ms (0 without server.mjs), from the
 * header only server.mjs sets (it removes any value a client sent).
 */
export function acceptQueueMs(req: Request): number {
  if (!admittedAtAccept()) return 0;
  const ms = Number(req.headers.get(SEAM_HEADERS.queueMs));
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
export function admissionWaited(caller: CallerKind, seconds: number): void {
  metrics().admissionWait.observe({ caller }, seconds);
}

/** A request that never got its turn. */
export function admissionRejected(reason: RefusalReason, caller: CallerKind): void {
  metrics().admissionRejected.inc({ reason, caller });
}
