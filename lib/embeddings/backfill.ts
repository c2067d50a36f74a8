import "server-only";
import { createHash } from "node:crypto";
import type { z } from "zod";
import { recordAudit } from "@/lib/audit/queries";
import type { Caller } from "@/lib/auth/caller";
import { asCaller, asSystem, type Database, type Queryable } from "@/lib/db";
import { StepSize } from "@/lib/db/steps";
import type { backfillReportView } from "./contracts";
import { recordEmbeddingFailure } from "@/lib/metrics/embeddings";
import { asJobRun } from "@/lib/metrics/jobs";
import { getEmbeddingProvider, toVectorLiteral } from "./index";
import { EmbeddingUnavailableError } from "./types";

/**
 * A table whose rows carry an `embedding` vector and the `embedding_model` that made it. A row
 * is queued for re-embedding when a write left it without a vector (the provider was down) or when
 * its vector was made by another model than the configured one (the provider or model changed:
 * vectors of different models are never compared, so those rows are re-embedded). Add your table here to have `npm run embed:backfill`
 * and the console's re-embed button fill it in. The table needs `id uuid` and, for a fast queue
 * scan, an index `on <table> (id) where embedding is null`.
 */
export interface BackfillTarget {
  table: string;
  /** SQL over one row giving the text to embed: exactly the text the write path embeds */
  textExpression: string;
}

export const BACKFILL_TARGETS: BackfillTarget[] = [
  { table: "agent_documents", textExpression: "content" },
  // lib/memories/rules.ts memoryEmbeddingText
  { table: "memories", textExpression: "case when content = '' then title else title || E'\\n\\n' || content end" },
  // lib/memories/attachments.ts searchableText: who said it, what was said and its attachments' captions
  { table: "interactions", textExpression: "mhq.interaction_text(speaker, content, attachments)" },
  // lib/knowledge/embedding-text.ts knowledgeEmbeddingText (KNOWLEDGE_EMBEDDING_SQL)
  { table: "knowledge_entries", textExpression: "title || E'\\n\\n' || content" },
];

export type QueueCount = BackfillReport["targets"][number];

/** Rows without a vector of `model`. */
const QUEUED = "(embedding is null or embedding_model is distinct from $1)";
/**
 * `and` rows whose vector was made by one of the models in parameter `$n` (a text array); with
 * `missing`, rows without a vector too. `row`: the table's alias and a dot, or nothing.
 */
const ofModels = (n: number, missing = false, row = "") =>
  missing ? ` and (${row}embedding is null or ${row}embedding_model = any($${n}::text[]))` : ` and ${row}embedding_model = any($${n}::text[])`;

/**
 * Rows queued for `model`; with `models`, only those whose vector one of these models made, and with
 * `missing` as well, those and the rows without a vector.
 */
export async function countQueued(
  tx: Queryable,
  targets = BACKFILL_TARGETS,
  model = getEmbeddingProvider().model,
  models?: readonly string[],
  missing = false,
): Promise<QueueCount[]> {
  const out: QueueCount[] = [];
  for (const t of targets) {
    const [row] = await tx.query<{ n: number }>(
      `select count(*)::integer as n from ${t.table} where ${QUEUED}${models ? ofModels(2, missing) : ""}`,
      models ? [model, [...models]] : [model],
    );
    out.push({ table: t.table, remaining: Number(row?.n ?? 0) });
  }
  return out;
}

/** `error` is set when the provider failed; what was embedded before stays embedded. */
export type BackfillReport = z.output<typeof backfillReportView>;

/**
 * Embeds up to `limit` queued rows across the targets, in batches, as the system role (a job, not a
 * caller). Each batch is read, embedded outside any transaction, then written only where the row
 * is still unembedded and its text unchanged, so a concurrent edit is never overwritten with an
 * embedding of stale text. Reads and writes are bulk steps (lib/db/lanes.ts): they wait while
 * requests wait for the database, and a batch is written a few rows per step (a new vector is a
 * new entry in the table's vector index), each step about BULK_STEP_MS.
 */
export async function backfillEmbeddings(
  opts: {
    limit?: number;
    batchSize?: number;
    targets?: BackfillTarget[];
    /** a database other than the app's (the npm script opens its own) */
    db?: Database;
    /** only rows whose vector these models made (an earlier local model's), and rows without one with `missing` */
    models?: readonly string[];
    missing?: boolean;
    /** asked between batches: true stops the run where it is (a graceful shutdown) */
    stop?: () => boolean;
    onBatch?: (r: { table: string; embedded: number }) => void;
  } = {},
): Promise<BackfillReport> {
  const system = <T>(fn: (tx: Queryable) => Promise<T>) => (opts.db ? opts.db.transaction(fn, { lane: "bulk" }) : asSystem(fn, { lane: "bulk" }));
  const writeSize = new StepSize({ first: 8, max: 500 });
  const limit = opts.limit ?? Number.POSITIVE_INFINITY;
  const batchSize = opts.batchSize ?? 64;
  const targets = opts.targets ?? BACKFILL_TARGETS;
  const provider = getEmbeddingProvider();
  let embedded = 0;
  let error: string | undefined;

  const onlyParams = opts.models ? [[...opts.models]] : [];

  outer: for (const t of targets) {
    // every row is visited at most once per run, even if its write keeps being skipped
    let after = "00000000-0000-0000-0000-000000000000";
    while (embedded < limit) {
      if (opts.stop?.()) break outer;
      const rows = await system((tx) =>
        tx.query<{ id: string; text: string }>(
          `select id, ${t.textExpression} as text from ${t.table}
            where ${QUEUED}${opts.models ? ofModels(4, opts.missing) : ""} and id > $2 order by id limit $3`,
          [provider.model, after, Math.min(batchSize, limit - embedded), ...onlyParams],
        ),
      );
      if (!rows.length) break;
      after = rows[rows.length - 1]!.id;
      let vectors: number[][];
      try {
        vectors = await provider.embed(rows.map((r) => r.text));
      } catch (err) {
        recordEmbeddingFailure(provider.name, err instanceof EmbeddingUnavailableError ? "unavailable" : "error");
        if (!(err instanceof EmbeddingUnavailableError)) throw err;
        error = err.message;
        break outer;
      }
      const written: { id: string }[] = [];
      for (let at = 0; at < rows.length; ) {
        const n = writeSize.next();
        const slice = rows.slice(at, at + n);
        const vecs = vectors.slice(at, at + n);
        const started = performance.now();
        written.push(
          ...(await system(async (tx) => {
            // rows are locked in id order first: two runs at once (two instances re-embedding after
            // an upgrade, an admin's run beside them) then wait for each other instead of deadlocking
            await tx.query(`select 1 from ${t.table} where id = any($1::uuid[]) order by id for update`, [slice.map((r) => r.id)]);
            return tx.query<{ id: string }>(
              // v's column names are chosen not to collide with the columns textExpression reads
              `update ${t.table} as t set embedding = v.mhq_vec::vector, embedding_model = $4
                 from unnest($1::uuid[], $2::text[], $3::text[]) as v(mhq_row_id, mhq_vec, mhq_text_hash)
                where t.id = v.mhq_row_id and (t.embedding is null or t.embedding_model is distinct from $4)${opts.models ? ofModels(5, opts.missing, "t.") : ""}
                  and md5(${t.textExpression}) = v.mhq_text_hash
                returning t.id`,
              [slice.map((r) => r.id), vecs.map(toVectorLiteral), slice.map((r) => md5(r.text)), provider.model, ...onlyParams],
            );
          })),
        );
        if (slice.length === n) writeSize.record(n, performance.now() - started);
        at += slice.length;
      }
      embedded += written.length;
      opts.onBatch?.({ table: t.table, embedded: written.length });
    }
  }
  // each table's count a step of its own
  const counts: QueueCount[] = [];
  for (const target of targets) counts.push(...(await system((tx) => countQueued(tx, [target], provider.model))));
  return { embedded, remaining: counts.reduce((s, c) => s + c.remaining, 0), targets: counts, ...(error ? { error } : {}) };
}

/** An admin's backfill run from the API, recorded on the audit log with what it embedded. */
export async function runBackfillFor(caller: Caller, body: { limit?: number }) {
  // a run that stopped on a provider failure reports it instead of throwing: an error run all the same
  const report = await asJobRun("embedding_backfill", () => backfillEmbeddings({ limit: body.limit }), (r) => Boolean(r.error));
  await asCaller(caller, (tx) =>
    recordAudit(tx, {
      action: "embeddings.backfill",
      targetType: "embeddings",
      details: { embedded: report.embedded, remaining: report.remaining, ...(report.error ? { error: report.error } : {}) },
    }),
  );
  return report;
}

const md5 = (s: string) => createHash("md5").update(s, "utf8").digest("hex");

/** What waits for re-embedding, and with which provider it would be embedded (the admin page). */
export async function getBackfillStatus() {
  const provider = getEmbeddingProvider();
  const targets = await asSystem((tx) => countQueued(tx));
  return { provider: provider.name, model: provider.model, remaining: targets.reduce((s, c) => s + c.remaining, 0), targets };
}
