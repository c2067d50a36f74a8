// GET /api/v1/knowledge — list entries, or hybrid search with ?q= (&category=&tag=&status=&limit=&offset=)
// POST /api/v1/knowledge — create an entry (HQ admin/curator, internal agents with kbAccess "write")
import { route } from "@/lib/http/route";
import { knowledgeContracts as c } from "@/lib/knowledge/contracts";
import { createKnowledge, listKnowledge } from "@/lib/knowledge/service";

export const GET = route(c.list, async ({ caller, query }) => listKnowledge(caller, query));

export const POST = route(c.create, async ({ caller, body }) => createKnowledge(caller, body));
