// POST /api/v1/jobs/consolidate — the nightly consolidation (HQ admins; `now` replays a given time, `dryRun` changes nothing)
import { route } from "@/lib/http/route";
import { consolidate } from "@/lib/lifecycle/consolidation";
import { lifecycleContracts as c } from "@/lib/lifecycle/contracts";

export const POST = route(c.consolidate, async ({ caller, body }) => consolidate(caller, body));
