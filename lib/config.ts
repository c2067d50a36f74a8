import { isIP } from "node:net";
import { z } from "zod";

// Every setting the server reads, in one place, validated once. docs/OPERATIONS.md "Configuration" documents
// each of these; keep the two in step.
const boolish = z
  .enum(["true", "false", "1", "0", "yes", "no"])
  .transform((v) => v === "true" || v === "1" || v === "yes");

function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/**
 * Which proxies' forwarded headers (X-Forwarded-For) to believe:
 * - unset, "false" or "0": none — the app is reached directly, every caller counts as one address;
 * - a hop count 1..10: that many proxies each append the address they saw; the client is the Nth
 *   address from the right;
 * - a comma-separated list of proxy addresses or CIDR ranges: addresses in the list are skipped from
 *   the right; the first one outside it is the client.
 */
export type TrustProxy =
  | { mode: "none" }
  | { mode: "hops"; hops: number }
  | { mode: "list"; ranges: { address: string; prefix: number; family: 4 | 6 }[] };

function parseTrustProxy(raw: string, ctx: z.RefinementCtx): TrustProxy {
  const v = raw.trim().toLowerCase();
  if (v === "" || v === "false" || v === "0" || v === "no") return { mode: "none" };
  if (/^\d+$/.test(v)) {
    const hops = Number(v);
    if (hops <= 10) return { mode: "hops", hops };
  } else {
    const ranges: { address: string; prefix: number; family: 4 | 6 }[] = [];
    for (const item of v.split(",").map((x) => x.trim()).filter(Boolean)) {
      const [address = "", prefixText] = item.split("/");
      const family = isIP(address);
      const max = family === 4 ? 32 : 128;
      const prefix = prefixText === undefined ? max : /^\d+$/.test(prefixText) ? Number(prefixText) : -1;
      if (!family || prefix < 0 || prefix > max) {
        ctx.addIssue({ code: "custom", message: `TRUST_PROXY: "${item}" is not an IP address or CIDR range` });
        return { mode: "none" };
      }
      ranges.push({ address, prefix, family: family as 4 | 6 });
    }
    if (ranges.length) return { mode: "list", ranges };
  }
  ctx.addIssue({
    code: "custom",
    message: "TRUST_PROXY must be false, a proxy hop count from 1 to 10, or a comma-separated list of proxy addresses/CIDR ranges",
  });
  return { mode: "none" };
}

const envSchema = z.object({
  DATABASE_URL: z.string().url().optional(),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(100).default(10),
  /**
   * Connections of DATABASE_URL's pool that bulk work (imports, re-embedding, consolidation, counter
   * folds) may hold at once; the rest stay free for requests. Default: a quarter of the pool, at least 1
   */
  DATABASE_BULK_CONNECTIONS: z.coerce.number().int().min(1).max(100).optional(),
  /**
   * Named prepared statements on DATABASE_URL: `auto` uses them unless the URL's port is a
   * transaction-mode pooler's (6543 Supabase, 6432 PgBouncer), which cannot keep them between transactions
   */
  DATABASE_PREPARE: z.union([z.literal("auto"), boolish]).default("auto"),
  /** how long one step of bulk work (an import, re-embedding, consolidation, a counter fold) holds the database at most, roughly */
  BULK_STEP_MS: z.coerce.number().int().min(2).max(1000).default(20),
  /** the same once no request has come for a second (never below BULK_STEP_MS) */
  BULK_IDLE_STEP_MS: z.coerce.number().int().min(2).max(1000).default(50),
  DATA_DIR: z.string().min(1).default("./.data"),
  SEED_DEMO: boolish.default(true),
  /** Postgres shared_buffers of the embedded database (e.g. 256MB); PGlite's own default is 128MB */
  PGLITE_SHARED_BUFFERS: z
    .string()
    .regex(/^\d+(kB|MB|GB)$/, "PGLITE_SHARED_BUFFERS must look like 128MB, 512MB or 1GB")
    .optional(),
  ADMIN_API_KEY: z.string().min(16, "ADMIN_API_KEY must be at least 16 characters").optional(),
  /** the bearer token Prometheus scrapes GET /api/metrics with (ADMIN_API_KEY works too) */
  METRICS_TOKEN: z.string().min(16, "METRICS_TOKEN must be at least 16 characters").optional(),
  SESSION_TTL_HOURS: z.coerce.number().int().min(1).max(24 * 90).default(24 * 7),
  MAX_BODY_BYTES: z.coerce.number().int().min(1024).default(1_000_000),
  EMBEDDINGS_PROVIDER: z.enum(["local", "openai"]).optional(),
  OPENAI_API_KEY: z.string().optional(),
  OPENAI_BASE_URL: z.string().url().optional(),
  EMBEDDING_MODEL: z.string().min(1).default("text-embedding-3-small"),
  EMBEDDING_DIMENSIONS: z.coerce.number().int().min(8).max(1536).default(1536),
  EMBEDDING_BATCH_SIZE: z.coerce.number().int().min(1).max(2048).default(64),
  EMBEDDING_MAX_RETRIES: z.coerce.number().int().min(0).max(10).default(3),
  EMBEDDING_TIMEOUT_MS: z.coerce.number().int().min(1000).default(30_000),
  // which calendar day is "today" for daily notes and the boot context (an IANA time zone)
  DAILY_NOTE_TIMEZONE: z
    .string()
    .refine(isTimeZone, "DAILY_NOTE_TIMEZONE must be an IANA time zone such as UTC or America/New_York")
    .default("UTC"),
  /** the manager pass approves suggestions at or above this confidence without a person (never below the fixed floor of 0.7) */
  REVIEW_AUTO_APPROVE_THRESHOLD: z.coerce.number().min(0.7).max(1).default(0.9),
  /** the proxies whose X-Forwarded-For is believed (sign-in limits count per client address) */
  TRUST_PROXY: z.string().default("false").transform(parseTrustProxy),
  /** API requests one instance serves at once (default: DATABASE_POOL_MAX on a server, 4 embedded) */
  ADMISSION_CONCURRENCY: z.coerce.number().int().min(1).max(1000).optional(),
  /** requests one caller may have running at once (default: the machine's cores, at least 2; never more than half of ADMISSION_CONCURRENCY) */
  ADMISSION_CALLER_CONCURRENCY: z.coerce.number().int().min(1).max(1000).optional(),
  /** requests that may wait for a turn, in arrival order; beyond it 429 at once */
  ADMISSION_QUEUE: z.coerce.number().int().min(0).max(100_000).default(1000),
  /** a request that waited this long for its turn is refused with 429 instead of served late */
  ADMISSION_MAX_WAIT_MS: z.coerce.number().int().min(100).default(30_000),
  /** requests per second one caller (an agent key, an HQ session, the admin key, an address) may send, after its burst */
  ADMISSION_CALLER_RATE: z.coerce.number().int().min(1).max(100_000).default(100),
  /** requests one caller may send at once above its rate (the token bucket's size) */
  ADMISSION_CALLER_BURST: z.coerce.number().int().min(1).max(1_000_000).default(200),
  /** requests of one caller that may wait (body being read, or waiting for a turn) before its next gets 429 */
  ADMISSION_CALLER_QUEUE: z.coerce.number().int().min(1).max(100_000).default(32),
  /** the production server: a request's headers must arrive within this (else 408) */
  HEADERS_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(10_000),
  /** the production server: a request's body must arrive within this once its headers have (else 408) */
  BODY_TIMEOUT_MS: z.coerce.number().int().min(1000).max(3_600_000).default(30_000),
  /** the production server: an idle keep-alive connection is closed after this */
  KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(65_000),
  /** the production server: idle keep-alive connections kept at most; beyond it the longest idle is closed */
  MAX_IDLE_CONNECTIONS: z.coerce.number().int().min(1).max(1_000_000).default(1000),
  /** the production server hands API calls with a bearer key straight to their route handler (server/direct.mjs) */
  API_DIRECT: boolish.default(true),
  /** local time (HH:MM in DAILY_NOTE_TIMEZONE) the nightly consolidation runs each day */
  CONSOLIDATE_AT: z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, "CONSOLIDATE_AT must be a time of day such as 03:00")
    .default("03:00"),
  /** false: this instance never runs the consolidation on its own (the admin call and npm script still do) */
  CONSOLIDATE_SCHEDULER: boolish.default(true),
  /** each nightly report is POSTed here as JSON (retried with backoff; never blocks the job) */
  REPORT_WEBHOOK_URL: z.string().url().optional(),
  REPORT_WEBHOOK_RETRIES: z.coerce.number().int().min(0).max(10).default(4),
  REPORT_WEBHOOK_BACKOFF_MS: z.coerce.number().int().min(1).max(600_000).default(2000),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
});

export type AppConfig = z.infer<typeof envSchema>;

let cached: AppConfig | undefined;

export function getConfig(): AppConfig {
  if (cached) return cached;
  const raw = Object.fromEntries(
    Object.entries(process.env).filter(([, v]) => v !== undefined && v !== ""),
  );
  const parsed = envSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`Invalid configuration: ${problems}`);
  }
  cached = parsed.data;
  return cached;
}

/** Tests change the environment between files; they call this to re-read it. */
export function resetConfigForTests(): void {
  cached = undefined;
}
