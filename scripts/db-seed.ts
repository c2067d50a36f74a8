// `npm run db:seed`: loads the demo into an empty database (DATABASE_URL or the embedded one).
// The embedded database does this by itself on first start unless SEED_DEMO=false.
import path from "node:path";
import { getConfig } from "@/lib/config";
import { migrate } from "@/lib/db/migrate";
import { openPglite } from "@/lib/db/pglite";
import { openPostgres } from "@/lib/db/postgres";
import { seedDemoIfEmpty } from "@/lib/demo/seed";

async function main() {
  const config = getConfig();
  const db = config.DATABASE_URL
    ? openPostgres(config.DATABASE_URL, { max: 1 })
    : (await openPglite(path.join(path.resolve(config.DATA_DIR), "pglite"))).db;
  try {
    await migrate(db);
    const seeded = await seedDemoIfEmpty(db);
    console.log(seeded ? "Demo data loaded." : "The database already has data (or was seeded before); nothing loaded.");
  } finally {
    await db.close();
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
