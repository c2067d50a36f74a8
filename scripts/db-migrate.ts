// `npm run db:migrate`: applies the pending files of supabase/migrations to DATABASE_URL (or the
// embedded database in DATA_DIR) and prints what it applied. Safe to run repeatedly.
import path from "node:path";
import { getConfig } from "@/lib/config";
import { migrate } from "@/lib/db/migrate";
import { openPglite } from "@/lib/db/pglite";
import { openPostgres } from "@/lib/db/postgres";

async function main() {
  const config = getConfig();
  const db = config.DATABASE_URL
    ? openPostgres(config.DATABASE_URL, { max: 1 })
    : (await openPglite(path.join(path.resolve(config.DATA_DIR), "pglite"))).db;
  try {
    const { migrations } = await migrate(db);
    console.log(migrations.length ? `Applied ${migrations.length} migration(s): ${migrations.join(", ")}` : "Database is up to date.");
  } finally {
    await db.close();
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
