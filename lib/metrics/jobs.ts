import "server-only";
import type { JobName } from "./job-names";
import { metrics } from "./registry";

/** One run of `job` that ended with `result` after `seconds`. */
export function recordJobRun(job: JobName, result: "ok" | "error", seconds: number): void {
  const m = metrics();
  m.jobRuns.inc({ job, result });
  m.jobDuration.observe({ job }, seconds);
  if (result === "ok") m.jobLastSuccess.set({ job }, Date.now() / 1000);
}

/**
 * Runs `fn` as one run of `job`: a throw is an error run (and is rethrown); `failed` may call a
 * returned value an error too (a job that reports its failure instead of throwing).
 */
export async function asJobRun<T>(job: JobName, fn: () => Promise<T>, failed: (value: T) => boolean = () => false): Promise<T> {
  const started = performance.now();
  const seconds = () => (performance.now() - started) / 1000;
  let value: T;
  try {
    value = await fn();
  } catch (err) {
    recordJobRun(job, "error", seconds());
    throw err;
  }
  recordJobRun(job, failed(value) ? "error" : "ok", seconds());
  return value;
}
