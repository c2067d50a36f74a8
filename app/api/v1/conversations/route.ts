// GET /api/v1/conversations — recorded conversations, most recently active first (?agentId=&clientId=&contactId=&channel=&cursor=&limit=)
import { route } from "@/lib/http/route";
import { memoryContracts as c } from "@/lib/memories/contracts";
import { listConversations } from "@/lib/memories/interaction-service";

export const GET = route(c.listConversations, async ({ caller, query }) => listConversations(caller, query));
