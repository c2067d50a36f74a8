// Runs once when a Next.js server starts: the nightly consolidation's scheduler lives in the Node.js
// runtime only (it needs the database); it sets a timer and returns at once, so start-up never waits.
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { startConsolidationScheduler } = await import("./lib/lifecycle/scheduler");
    startConsolidationScheduler();
  }
}
