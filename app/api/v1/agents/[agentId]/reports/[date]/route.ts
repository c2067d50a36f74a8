// GET /api/v1/agents/[agentId]/reports/[date] — one day's report as fields and markdown (HQ: computed on demand when not stored)
import { route } from "@/lib/http/route";
import { lifecycleContracts as c } from "@/lib/lifecycle/contracts";
import { getAgentReport } from "@/lib/lifecycle/reports";

export const GET = route(c.getReport, async ({ caller, params }) => getAgentReport(caller, params.agentId, params.date));
