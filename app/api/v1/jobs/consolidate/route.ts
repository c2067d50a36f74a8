// POST /api/v1/jobs/consolidate — the nightly consolidation (HQ admins; `now` replays a given time, `dryRun` changes nothing)
import { route } from "@/lib/http/route";
import { consolidate } from "@/lib/lifecycle/consolidation";
import { consolidateBody } from "@/lib/lifecycle/schemas";

export const POST = route({ permission: "lifecycle.consolidate", body: consolidateBody }, async ({ caller, body }) => consolidate(caller, body));
