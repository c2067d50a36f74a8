// GET /api/v1/knowledge/[id]/versions — every version of an entry, oldest first (the last is current)
import { route } from "@/lib/http/route";
import { listKnowledgeVersions } from "@/lib/knowledge/service";

export const GET = route({ permission: "knowledge.read" }, async ({ caller, params }) => listKnowledgeVersions(caller, params.id));
