// GET /api/v1/agents/[agentId]/documents/[type] — SOUL, WORKING (scratchpad) or a daily note (?date=); never written → "" v0
// PUT /api/v1/agents/[agentId]/documents/[type] — write it; a stale expectedVersion answers 409, working > 2000 chars 422
import { documentContracts as c } from "@/lib/documents/contracts";
import { getDocument, putDocument } from "@/lib/documents/service";
import { route } from "@/lib/http/route";

export const GET = route(c.get, async ({ caller, query, params }) => getDocument(caller, params.agentId, params.type, query));

export const PUT = route(c.put, async ({ caller, body, params }) => putDocument(caller, params.agentId, params.type, body));
