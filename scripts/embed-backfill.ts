// `npm run embed:backfill`: embeds every row a write stored without an embedding (the provider was
// down: "queued for re-embedding"), across every table in lib/embeddings/backfill.ts, and prints
// progress. Options: --limit N (stop after N rows), --batch N (texts per provider call).
// The embedded database allows one process at a time: stop the server first, or use the console's
// Re-embed button (POST /api/v1/embeddings/backfill), which runs inside the server.
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { getConfig } from "@/lib/config";
import { migrate } from "@/lib/db/migrate";
import { openPglite } from "@/lib/db/pglite";
import { openPostgres } from "@/lib/db/postgres";
import { getEmbeddingProvider } from "@/lib/embeddings";
import { backfillEmbeddings, countQueued } from "@/lib/embeddings/backfill";

function option(name: string): number | undefined {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return undefined;
  const n = Number(process.argv[i + 1]);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} takes a positive whole number`);
  return n;
}

async function main() {
  const config = getConfig();
  const limit = option("limit");
  const batchSize = option("batch") ?? config.EMBEDDING_BATCH_SIZE;
  if (!config.DATABASE_URL) await mkdir(path.resolve(config.DATA_DIR), { recursive: true });
  const db = config.DATABASE_URL
    ? openPostgres(config.DATABASE_URL, { max: 1 })
    : (await openPglite(path.join(path.resolve(config.DATA_DIR), "pglite"))).db;
  try {
    if (db.kind === "pglite") await migrate(db);
    const provider = getEmbeddingProvider();
    const queued = await db.transaction((tx) => countQueued(tx));
    const total = queued.reduce((s, q) => s + q.remaining, 0);
    console.log(`Provider: ${provider.name} (${provider.model})`);
    for (const q of queued) console.log(`  ${q.table.padEnd(20)} ${q.remaining} queued`);
    if (total === 0) {
      console.log("Nothing to re-embed.");
      return;
    }
    let done = 0;
    const report = await backfillEmbeddings({
      db,
      limit,
      batchSize,
      onBatch: ({ table, embedded }) => {
        done += embedded;
        console.log(`  ${table.padEnd(20)} +${embedded}  (${done}/${Math.min(total, limit ?? total)})`);
      },
    });
    console.log(`Embedded ${report.embedded}; ${report.remaining} still queued.`);
    if (report.error) {
      console.error(`Stopped: ${report.error}`);
      process.exitCode = 1;
    }
  } finally {
    await db.close();
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
