import "server-only";
import { metrics } from "./registry";

/** One call of the embedding provider that answered after `seconds`. */
export function recordEmbeddingCall(provider: string, seconds: number): void {
  metrics().embeddingDuration.observe({ provider }, seconds);
}

/** One call of the embedding provider that failed: `unavailable` leaves rows queued for re-embedding. */
export function recordEmbeddingFailure(provider: string, reason: "unavailable" | "error"): void {
  metrics().embeddingFailures.inc({ provider, reason });
}
