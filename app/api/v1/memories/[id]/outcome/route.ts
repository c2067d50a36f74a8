// POST /api/v1/memories/[id]/outcome — score a decision: stores the outcome and a linked learning/outcome memory
import { route } from "@/lib/http/route";
import { memoryContracts as c } from "@/lib/memories/contracts";
import { recordOutcome } from "@/lib/memories/service";

export const POST = route(c.outcome, async ({ caller, body, params }) => recordOutcome(caller, params.id, body));
