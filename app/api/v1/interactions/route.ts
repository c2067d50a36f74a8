// GET /api/v1/interactions — recorded conversations (?agentId=&clientId=&contactId=&conversationId=&q=&before=&cursor=&limit=)
// POST /api/v1/interactions — record one message of a conversation (agents; field agents for their own client);
//   200 with the stored one when its externalId was already stored
import { json, route } from "@/lib/http/route";
import { memoryContracts as c } from "@/lib/memories/contracts";
import { createInteraction, listInteractions } from "@/lib/memories/interaction-service";

export const GET = route(c.listInteractions, async ({ caller, query }) => listInteractions(caller, query));

export const POST = route(c.createInteraction, async ({ caller, body }) => {
  const result = await createInteraction(caller, body);
  return result.deduplicated ? json(result, 200) : result;
});
