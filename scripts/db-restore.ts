// `npm run db:restore -- FILE`: restores a backup made by `npm run db:backup` (or the console's Backup
// button, or GET /api/v1/admin/backup) into DATA_DIR, which must be empty or missing — nothing is
// ever overwritten — and applies this version's migrations, so `npm start` then serves it.
import path from "node:path";
import { getConfig } from "@/lib/config";
import { restoreOffline } from "@/lib/db/backup";

async function main() {
  const file = process.argv.slice(2).find((a) => !a.startsWith("--"));
  if (!file) throw new Error("Usage: DATA_DIR=./restored npm run db:restore -- FILE");
  const config = getConfig();
  if (config.DATABASE_URL) {
    throw new Error("DATABASE_URL is set: a backup of the embedded database restores into a DATA_DIR. Unset DATABASE_URL (restore a PostgreSQL dump with pg_restore).");
  }
  const dataDir = path.resolve(config.DATA_DIR);
  const { migrations } = await restoreOffline(file, dataDir);
  console.log(
    `Restored ${file} into ${dataDir}${migrations.length ? ` and applied ${migrations.length} migration(s)` : ""}. Start the app on it: DATA_DIR=${config.DATA_DIR} npm start`,
  );
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
