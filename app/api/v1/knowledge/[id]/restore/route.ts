// POST /api/v1/knowledge/[id]/restore — make an earlier version the next version ({version, expectedVersion?})
import { route } from "@/lib/http/route";
import { restoreKnowledgeBody } from "@/lib/knowledge/schemas";
import { restoreKnowledge } from "@/lib/knowledge/service";

export const POST = route({ permission: "knowledge.write", body: restoreKnowledgeBody }, async ({ caller, body, params }) =>
  restoreKnowledge(caller, params.id, body),
);
