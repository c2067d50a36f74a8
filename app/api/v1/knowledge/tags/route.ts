// GET /api/v1/knowledge/tags — tags in use on published entries, with counts (the console's filter)
import { route } from "@/lib/http/route";
import { knowledgeContracts as c } from "@/lib/knowledge/contracts";
import { listKnowledgeTags } from "@/lib/knowledge/service";

export const GET = route(c.tags, async ({ caller }) => listKnowledgeTags(caller));
