// POST /api/v1/interactions/batch — record a transcript: 1–500 turns in one call, all or nothing;
//   201 when a turn was stored, 200 when every turn was already stored (a retry), as a single write answers
import { json, route } from "@/lib/http/route";
import { memoryContracts as c } from "@/lib/memories/contracts";
import { createInteractionBatch } from "@/lib/memories/interaction-service";

export const POST = route(c.createInteractionBatch, async ({ caller, body }) => {
  const result = await createInteractionBatch(caller, body);
  return result.interactions.every((i) => i.deduplicated) ? json(result, 200) : result;
});
