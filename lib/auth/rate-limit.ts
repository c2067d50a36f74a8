import { ApiError } from "@/lib/http/errors";

/**
 * A fixed-window counter per key, in process memory: enough to slow password guessing on one
 * instance. Behind a load balancer each instance counts on its own.
 */
export function createRateLimiter(limit: number, windowMs: number) {
  const hits = new Map<string, { count: number; resetAt: number }>();
  return {
    check(key: string) {
      const now = Date.now();
      const entry = hits.get(key);
      if (!entry || entry.resetAt <= now) {
        if (hits.size > 10_000) hits.clear();
        hits.set(key, { count: 1, resetAt: now + windowMs });
        return;
      }
      entry.count += 1;
      if (entry.count > limit) {
        const seconds = Math.ceil((entry.resetAt - now) / 1000);
        throw new ApiError("rate_limited", `Too many attempts; try again in ${seconds} s`);
      }
    },
    reset(key: string) {
      hits.delete(key);
    },
  };
}
