// Runs once when a Next.js server starts, in the Node.js runtime only (both need it):
// - OpenTelemetry traces, when the standard OTEL_* variables name an OTLP endpoint;
// - the nightly consolidation's scheduler (it needs the database) and the janitor of imports left
//   unfinished, and the local model's embedding of rows an earlier release's local model embedded
//   or left without a vector; each sets a timer and returns at once, so start-up never waits;
// - the bridge server.mjs calls (admission at accept, graceful shutdown): lib/http/server-bridge.ts.
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { startTracing } = await import("./lib/metrics/tracing");
    await startTracing();
    const { startConsolidationScheduler } = await import("./lib/lifecycle/scheduler");
    startConsolidationScheduler();
    const { startLeftoverJanitor } = await import("./lib/bulk/leftovers");
    startLeftoverJanitor();
    const { startLocalReembed } = await import("./lib/embeddings/local-upgrade");
    startLocalReembed();
    const { installServerBridge } = await import("./lib/http/server-bridge");
    installServerBridge();
  }
}
