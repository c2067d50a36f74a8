// GET /api/health — liveness and which database transport is in use
import { getDatabase } from "@/lib/db";
import { json, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

export const GET = route({ permission: null }, async () => {
  const db = await getDatabase();
  await db.query("select 1");
  return json({ status: "ok", database: db.kind });
});
