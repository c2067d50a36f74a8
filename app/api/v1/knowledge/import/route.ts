// POST /api/v1/knowledge/import — many entries at once ({entries?, files?, dryRun?}), reported per item
import { route } from "@/lib/http/route";
import { knowledgeContracts as c } from "@/lib/knowledge/contracts";
import { importKnowledge } from "@/lib/knowledge/import";

export const POST = route(c.import, async ({ caller, body }) => importKnowledge(caller, body));
