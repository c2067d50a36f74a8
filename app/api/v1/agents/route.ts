// GET /api/v1/agents — agents the caller may see
// POST /api/v1/agents — create an agent (HQ admin)
import { createAgentBody } from "@/lib/agents/schemas";
import { createAgent, listAgents } from "@/lib/agents/service";
import { json, route } from "@/lib/http/route";

export const GET = route({ permission: "agents.read" }, async ({ caller }) => listAgents(caller));

export const POST = route({ permission: "agents.write", body: createAgentBody }, async ({ caller, body }) =>
  json(await createAgent(caller, body), 201),
);
