// GET /api/v1/interactions — recorded conversations (?agentId=&clientId=&contactId=&q=&before=&limit=)
// POST /api/v1/interactions — record one message of a conversation (agents; field agents for their own client)
import { json, route } from "@/lib/http/route";
import { createInteraction, listInteractions } from "@/lib/memories/interaction-service";
import { createInteractionBody, listInteractionsQuery } from "@/lib/memories/schemas";

export const GET = route({ permission: "interactions.read", query: listInteractionsQuery }, async ({ caller, query }) =>
  listInteractions(caller, query),
);

export const POST = route({ permission: "interactions.write", body: createInteractionBody }, async ({ caller, body }) =>
  json(await createInteraction(caller, body), 201),
);
