import "server-only";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import { CALLER_KINDS, REFUSAL_REASONS } from "@/server/admission.mjs";
import { JOB_NAMES } from "./job-names";
import { processWide } from "@/lib/process-wide";

/** Request and job durations, in seconds: a few milliseconds up to the admission queue's 30 s wait. */
const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Retrievals and embeddings are faster: from a millisecond. */
const FAST_SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

function createMetrics() {
  const registry = new Registry();
  // the process's CPU, memory, event-loop lag, handles and GC, under their usual unprefixed names
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  return {
    registry,
    httpRequests: new Counter({
      name: "mhq_http_requests_total",
      help: "API requests answered, by route template (never a raw path), method and status",
      labelNames: ["route", "method", "status"] as const,
      registers,
    }),
    httpDuration: new Histogram({
      name: "mhq_http_request_duration_seconds",
      help: "Time from a request's arrival to its answer, admission wait included, by route template, method and status",
      labelNames: ["route", "method", "status"] as const,
      buckets: SECONDS,
      registers,
    }),
    admissionQueueLength: new Gauge({
      name: "mhq_admission_queue_length",
      help: "Requests waiting for a turn in this instance's admission queue",
      registers,
    }),
    admissionInFlight: new Gauge({
      name: "mhq_admission_in_flight",
      help: "Requests this instance is serving now (at most mhq_admission_concurrency_limit)",
      registers,
    }),
    admissionConcurrencyLimit: new Gauge({
      name: "mhq_admission_concurrency_limit",
      help: "Requests this instance serves at once (ADMISSION_CONCURRENCY)",
      registers,
    }),
    admissionQueueLimit: new Gauge({
      name: "mhq_admission_queue_limit",
      help: "Requests that may wait for a turn before a newcomer gets 429 (ADMISSION_QUEUE)",
      registers,
    }),
    admissionWait: new Histogram({
      name: "mhq_admission_wait_seconds",
      help: "How long admitted requests waited for their turn, by kind of caller (agent, hq_user, admin, anonymous)",
      labelNames: ["caller"] as const,
      buckets: [0, ...FAST_SECONDS],
      registers,
    }),
    admissionRejected: new Counter({
      name: "mhq_admission_rejected_total",
      help: "Requests refused by admission control, by reason and kind of caller: rate_limited, caller_queue_full, queue_full and timeout answer 429, abandoned callers left the queue",
      labelNames: ["reason", "caller"] as const,
      registers,
    }),
    retrievals: new Counter({
      name: "mhq_retrievals_total",
      help: "Retrievals served, by the smart trigger's level (none, local, shared, hq)",
      labelNames: ["level"] as const,
      registers,
    }),
    retrievalDuration: new Histogram({
      name: "mhq_retrieval_duration_seconds",
      help: "Time to classify, search, fuse and log one retrieval, by level",
      labelNames: ["level"] as const,
      buckets: FAST_SECONDS,
      registers,
    }),
    jobRuns: new Counter({
      name: "mhq_job_runs_total",
      help: "Background and admin-run jobs, by job and result (ok, error)",
      labelNames: ["job", "result"] as const,
      registers,
    }),
    jobDuration: new Histogram({
      name: "mhq_job_duration_seconds",
      help: "How long each job run took, by job",
      labelNames: ["job"] as const,
      buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300, 900],
      registers,
    }),
    jobLastSuccess: new Gauge({
      name: "mhq_job_last_success_timestamp_seconds",
      help: "Unix time of each job's last successful run on this instance",
      labelNames: ["job"] as const,
      registers,
    }),
    embeddingDuration: new Histogram({
      name: "mhq_embedding_duration_seconds",
      help: "Embedding provider calls (each a batch of texts), by provider",
      labelNames: ["provider"] as const,
      buckets: FAST_SECONDS,
      registers,
    }),
    embeddingFailures: new Counter({
      name: "mhq_embedding_failures_total",
      help: "Failed embedding calls, by provider and reason: unavailable (the row is stored and queued for re-embedding) or error",
      labelNames: ["provider", "reason"] as const,
      registers,
    }),
  };
}

/**
 * The counters' known series start at 0, so a first retrieval at a level, a first failed job run or
 * a first refusal is a change a `rate()` or an alert sees, not a series that appears from nowhere.
 */
function initialiseSeries(m: ReturnType<typeof createMetrics>) {
  for (const level of ["none", "local", "shared", "hq"]) m.retrievals.inc({ level }, 0);
  for (const job of JOB_NAMES) for (const result of ["ok", "error"]) m.jobRuns.inc({ job, result }, 0);
  for (const reason of REFUSAL_REASONS) for (const caller of CALLER_KINDS) m.admissionRejected.inc({ reason, caller }, 0);
  return m;
}

export type Metrics = ReturnType<typeof createMetrics>;

/**
 * The process's one set of metrics. Next.js bundles each route on its own, so this module (and
 * prom-client's own default registry) may be loaded more than once: the set lives on globalThis,
 * as the database does, and every copy records into it.
 */
export function metrics(): Metrics {
  return processWide("metrics", () => initialiseSeries(createMetrics()));
}
