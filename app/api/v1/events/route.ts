// GET /api/v1/events — the event log the caller may see (filters: kind, outcome, agentId, since)
// POST /api/v1/events — log a tool success or failure (agents)
import { agentLogContracts as c } from "@/lib/agent-log/contracts";
import { createEvent, listEvents } from "@/lib/agent-log/events-service";
import { route } from "@/lib/http/route";

export const GET = route(c.listEvents, async ({ caller, query }) => listEvents(caller, query));

export const POST = route(c.createEvent, async ({ caller, body }) => createEvent(caller, body));
