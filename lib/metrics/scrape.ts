import "server-only";
import { safeEqual } from "@/lib/auth/secrets";
import { getConfig } from "@/lib/config";
import { metrics } from "./registry";

/**
 * Whether `authorization` carries the scrape token: `Bearer <METRICS_TOKEN>` or `Bearer <ADMIN_API_KEY>`.
 * Each configured token is compared in constant time, and both are always compared, so the answer's
 * timing tells nothing about which token (or how much of one) matched. With neither configured no
 * request is authorised.
 */
export function scrapeAuthorized(authorization: string | null): boolean {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
  if (!m) return false;
  const { METRICS_TOKEN, ADMIN_API_KEY } = getConfig();
  let ok = false;
  for (const token of [METRICS_TOKEN, ADMIN_API_KEY]) {
    if (token && safeEqual(m[1]!, token)) ok = true;
  }
  return ok;
}

/**
 * The metrics in the Prometheus text format (version 0.0.4) and its content type. prom-client spells
 * not-a-number `Nan` (an event-loop lag before its first sample): Prometheus reads any case, stricter
 * parsers (OpenMetrics) only the format's own `NaN`, which is what goes out.
 */
export async function exposition(): Promise<{ contentType: string; body: string }> {
  const { registry } = metrics();
  const body = (await registry.metrics()).replace(/^([^#\n].*) Nan$/gm, "$1 NaN");
  return { contentType: registry.contentType, body };
}
