// GET /api/v1/agents/[agentId]/reports — the agent's stored nightly reports, newest first
import { route } from "@/lib/http/route";
import { listAgentReports } from "@/lib/lifecycle/reports";
import { listReportsQuery } from "@/lib/lifecycle/schemas";

export const GET = route({ permission: "reports.read", query: listReportsQuery }, async ({ caller, query, params }) =>
  listAgentReports(caller, params.agentId, query),
);
