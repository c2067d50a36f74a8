// POST /api/v1/interactions/batch — record a transcript: 1–500 turns in one call, all or nothing;
//   201 with each turn's id in the order sent, `deduplicated: true` on a turn whose externalId was
//   already stored (a retry stores nothing new and answers the same ids)
import { route } from "@/lib/http/route";
import { memoryContracts as c } from "@/lib/memories/contracts";
import { createInteractionBatch } from "@/lib/memories/interaction-service";

export const POST = route(c.createInteractionBatch, async ({ caller, body }) => createInteractionBatch(caller, body));
