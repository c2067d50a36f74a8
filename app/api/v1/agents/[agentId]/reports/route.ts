// GET /api/v1/agents/[agentId]/reports — the agent's stored nightly reports, newest first
import { route } from "@/lib/http/route";
import { lifecycleContracts as c } from "@/lib/lifecycle/contracts";
import { listAgentReports } from "@/lib/lifecycle/reports";

export const GET = route(c.listReports, async ({ caller, query, params }) => listAgentReports(caller, params.agentId, query));
