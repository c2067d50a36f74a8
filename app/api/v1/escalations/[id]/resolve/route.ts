// POST /api/v1/escalations/[id]/resolve — resolve, optionally writing the fix to the knowledge base linked to it
import { route } from "@/lib/http/route";
import { resolveEscalation } from "@/lib/lifecycle/escalations";
import { resolveEscalationBody } from "@/lib/lifecycle/schemas";

export const POST = route({ permission: "escalations.resolve", body: resolveEscalationBody }, async ({ caller, body, params }) =>
  resolveEscalation(caller, params.id, body),
);
