import "server-only";
import { metrics } from "./registry";

// What the admission queue reports, wherever admission control runs (the route wrapper today).

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
