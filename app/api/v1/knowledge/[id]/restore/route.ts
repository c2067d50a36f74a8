// POST /api/v1/knowledge/[id]/restore — make an earlier version the next version ({version, expectedVersion?})
import { route } from "@/lib/http/route";
import { knowledgeContracts as c } from "@/lib/knowledge/contracts";
import { restoreKnowledge } from "@/lib/knowledge/service";

export const POST = route(c.restore, async ({ caller, body, params }) => restoreKnowledge(caller, params.id, body));
