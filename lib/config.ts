import { z } from "zod";

// Every setting the server reads, in one place, validated once. README "Configuration" documents
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

const envSchema = z.object({
  DATABASE_URL: z.string().url().optional(),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(100).default(10),
  DATA_DIR: z.string().min(1).default("./.data"),
  SEED_DEMO: boolish.default(true),
  /** Postgres shared_buffers of the embedded database (e.g. 256MB); PGlite's own default is 128MB */
  PGLITE_SHARED_BUFFERS: z
    .string()
    .regex(/^\d+(kB|MB|GB)$/, "PGLITE_SHARED_BUFFERS must look like 128MB, 512MB or 1GB")
    .optional(),
  ADMIN_API_KEY: z.string().min(16, "ADMIN_API_KEY must be at least 16 characters").optional(),
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
