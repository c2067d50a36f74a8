// GET /api/v1/agents/[agentId]/briefing — the situational briefing (last 6 hours; cached 5 minutes per agent)
import { route } from "@/lib/http/route";
import { getBriefing } from "@/lib/retrieval/briefing";
import { briefingQuery } from "@/lib/retrieval/schemas";

export const GET = route({ permission: "retrieval.use", query: briefingQuery }, async ({ caller, params }) =>
  getBriefing(caller, params.agentId),
);
