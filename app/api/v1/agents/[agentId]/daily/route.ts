// GET /api/v1/agents/[agentId]/daily — the dates of the agent's daily notes, newest first
import { documentContracts as c } from "@/lib/documents/contracts";
import { listDailyNotes } from "@/lib/documents/service";
import { route } from "@/lib/http/route";

export const GET = route(c.listDaily, async ({ caller, query, params }) => listDailyNotes(caller, params.agentId, query));
