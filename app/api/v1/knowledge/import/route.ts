// POST /api/v1/knowledge/import — many entries at once ({entries?, files?, dryRun?}), reported per item
import { route } from "@/lib/http/route";
import { importKnowledge } from "@/lib/knowledge/import";
import { IMPORT_MAX_BODY_BYTES, importKnowledgeBody } from "@/lib/knowledge/schemas";

export const POST = route(
  { permission: "knowledge.write", body: importKnowledgeBody, maxBodyBytes: IMPORT_MAX_BODY_BYTES },
  async ({ caller, body }) => importKnowledge(caller, body),
);
