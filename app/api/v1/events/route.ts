// GET /api/v1/events — the event log the caller may see (filters: kind, outcome, agentId, since)
// POST /api/v1/events — log a tool success or failure (agents)
import { createEvent, listEvents } from "@/lib/agent-log/events-service";
import { createEventBody, listEventsQuery } from "@/lib/agent-log/schemas";
import { json, route } from "@/lib/http/route";

export const GET = route({ permission: "events.read", query: listEventsQuery }, async ({ caller, query }) => listEvents(caller, query));

export const POST = route({ permission: "events.write", body: createEventBody }, async ({ caller, body }) =>
  json(await createEvent(caller, body), 201),
);
