// POST /api/v1/memories/[id]/outcome — score a decision: stores the outcome and a linked learning/outcome memory
import { json, route } from "@/lib/http/route";
import { outcomeBody } from "@/lib/memories/schemas";
import { recordOutcome } from "@/lib/memories/service";

export const POST = route({ permission: "memories.write", body: outcomeBody }, async ({ caller, body, params }) =>
  json(await recordOutcome(caller, params.id, body), 201),
);
