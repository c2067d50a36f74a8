// GET /api/v1/escalations — escalations the caller may see (?status=open|resolved), with counts
// POST /api/v1/escalations — raise one: 201 {escalation, similarKnowledge, knownFix?}
import { json, route } from "@/lib/http/route";
import { listEscalations, raiseEscalation } from "@/lib/lifecycle/escalations";
import { createEscalationBody, listEscalationsQuery } from "@/lib/lifecycle/schemas";

export const GET = route({ permission: "escalations.read", query: listEscalationsQuery }, async ({ caller, query }) => listEscalations(caller, query));

export const POST = route({ permission: "escalations.raise", body: createEscalationBody }, async ({ caller, body }) =>
  json(await raiseEscalation(caller, body), 201),
);
