// GET /api/v1/agents/[agentId]/daily — the dates of the agent's daily notes, newest first
import { listDailyQuery } from "@/lib/documents/schemas";
import { listDailyNotes } from "@/lib/documents/service";
import { route } from "@/lib/http/route";

export const GET = route({ permission: "documents.read", query: listDailyQuery }, async ({ caller, query, params }) =>
  listDailyNotes(caller, params.agentId, query),
);
