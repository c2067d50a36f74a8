import "server-only";

/**
 * Whether OpenTelemetry traces are wanted: an OTLP endpoint is set in the standard variables
 * (OTEL_EXPORTER_OTLP_ENDPOINT, or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT for traces alone) and
 * OTEL_SDK_DISABLED is not true. Without an endpoint nothing is started: the exporter's default
 * (localhost:4318) would otherwise be tried on every batch of every server.
 */
export function tracingConfigured(env: Record<string, string | undefined> = process.env): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim());
}

/**
 * Starts the OpenTelemetry SDK (from instrumentation.ts, Node.js runtime) when it is configured:
 * Next.js's own spans (each request, route and render) and outgoing fetches (the embedding server,
 * the report webhook) go to the OTLP endpoint, configured entirely by the standard OTEL_* variables
 * (OTEL_SERVICE_NAME, default memory-hq; OTEL_EXPORTER_OTLP_PROTOCOL http/protobuf or http/json;
 * OTEL_EXPORTER_OTLP_HEADERS; OTEL_TRACES_SAMPLER and its argument; OTEL_RESOURCE_ATTRIBUTES).
 */
export async function startTracing(): Promise<boolean> {
  if (!tracingConfigured()) return false;
  const { registerOTel } = await import("@vercel/otel");
  registerOTel({ serviceName: process.env.OTEL_SERVICE_NAME?.trim() || "memory-hq" });
  return true;
}
