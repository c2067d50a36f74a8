// GET /api/v1/agents/[agentId]/briefing — the situational briefing (last 6 hours; cached 5 minutes per agent)
import { route } from "@/lib/http/route";
import { getBriefing } from "@/lib/retrieval/context/briefing";
import { retrievalContracts as c } from "@/lib/retrieval/contracts";

export const GET = route(c.briefing, async ({ caller, params }) => getBriefing(caller, params.agentId));
