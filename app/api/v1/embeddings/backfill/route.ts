// GET /api/v1/embeddings/backfill — rows queued for re-embedding, per table (HQ admin)
// POST /api/v1/embeddings/backfill — re-embed up to `limit` queued rows; answers what remains (HQ admin)
import { getBackfillStatus, runBackfillFor } from "@/lib/embeddings/backfill";
import { embeddingContracts as c } from "@/lib/embeddings/contracts";
import { route } from "@/lib/http/route";

export const GET = route(c.status, async () => getBackfillStatus());

export const POST = route(c.run, async ({ caller, body }) => runBackfillFor(caller, body));
