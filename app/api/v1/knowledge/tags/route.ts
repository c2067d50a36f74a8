// GET /api/v1/knowledge/tags — tags in use on published entries, with counts (the console's filter)
import { route } from "@/lib/http/route";
import { listKnowledgeTags } from "@/lib/knowledge/service";

export const GET = route({ permission: "knowledge.read" }, async ({ caller }) => listKnowledgeTags(caller));
