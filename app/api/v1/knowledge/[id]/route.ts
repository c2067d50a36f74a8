// GET /api/v1/knowledge/[id] — one entry
// PATCH /api/v1/knowledge/[id] — edit an entry (optimistic concurrency with expectedVersion)
// DELETE /api/v1/knowledge/[id] — archive an entry (entries are never deleted)
import { route } from "@/lib/http/route";
import { knowledgeContracts as c } from "@/lib/knowledge/contracts";
import { archiveKnowledge, getKnowledge, updateKnowledge } from "@/lib/knowledge/service";

export const GET = route(c.get, async ({ caller, params }) => getKnowledge(caller, params.id));

export const PATCH = route(c.update, async ({ caller, body, params }) => updateKnowledge(caller, params.id, body));

export const DELETE = route(c.archive, async ({ caller, params }) => archiveKnowledge(caller, params.id));
