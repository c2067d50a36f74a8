// GET /api/v1/knowledge/[id]/versions — every version of an entry, oldest first (the last is current)
import { route } from "@/lib/http/route";
import { knowledgeContracts as c } from "@/lib/knowledge/contracts";
import { listKnowledgeVersions } from "@/lib/knowledge/service";

export const GET = route(c.versions, async ({ caller, params }) => listKnowledgeVersions(caller, params.id));
