// GET /api/health — liveness and which database transport is in use
import { getDatabase } from "@/lib/db";
import { route } from "@/lib/http/route";
import { systemContracts } from "@/lib/http/system-contracts";

export const dynamic = "force-dynamic";

export const GET = route(systemContracts.health, async () => {
  const db = await getDatabase();
  await db.query("select 1");
  return { status: "ok" as const, database: db.kind };
});
