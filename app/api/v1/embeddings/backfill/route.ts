// GET /api/v1/embeddings/backfill — rows queued for re-embedding, per table (HQ admin)
// POST /api/v1/embeddings/backfill — re-embed up to `limit` queued rows; answers what remains (HQ admin)
import { getBackfillStatus, runBackfillFor } from "@/lib/embeddings/backfill";
import { runBackfillBody } from "@/lib/embeddings/schemas";
import { route } from "@/lib/http/route";

export const GET = route({ permission: "embeddings.manage" }, async () => getBackfillStatus());

export const POST = route({ permission: "embeddings.manage", body: runBackfillBody }, async ({ caller, body }) =>
  runBackfillFor(caller, body),
);
