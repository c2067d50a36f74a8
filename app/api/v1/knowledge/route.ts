// GET /api/v1/knowledge — list entries, or hybrid search with ?q= (&category=&tag=&status=&limit=&offset=)
// POST /api/v1/knowledge — create an entry (HQ admin/curator, internal agents with kbAccess "write")
import { json, route } from "@/lib/http/route";
import { createKnowledgeBody, listKnowledgeQuery } from "@/lib/knowledge/schemas";
import { createKnowledge, listKnowledge } from "@/lib/knowledge/service";

export const GET = route({ permission: "knowledge.read", query: listKnowledgeQuery }, async ({ caller, query }) =>
  listKnowledge(caller, query),
);

export const POST = route({ permission: "knowledge.write", body: createKnowledgeBody }, async ({ caller, body }) =>
  json(await createKnowledge(caller, body), 201),
);
