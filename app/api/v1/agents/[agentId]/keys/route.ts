// GET /api/v1/agents/[agentId]/keys — the agent's keys, without secrets (HQ admin)
// POST /api/v1/agents/[agentId]/keys — issue a key; the key is in this response only (HQ admin)
import { createKeyBody } from "@/lib/agents/schemas";
import { issueKey, listKeys } from "@/lib/agents/service";
import { json, route } from "@/lib/http/route";

export const GET = route({ permission: "keys.manage" }, async ({ caller, params }) => listKeys(caller, params.agentId));

export const POST = route({ permission: "keys.manage", body: createKeyBody }, async ({ caller, body, params }) =>
  json(await issueKey(caller, params.agentId, body), 201),
);
