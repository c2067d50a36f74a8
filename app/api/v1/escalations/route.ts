// GET /api/v1/escalations — escalations the caller may see (?status=open|resolved), with counts
// POST /api/v1/escalations — raise one: 201 {escalation, similarKnowledge, knownFix?}
import { route } from "@/lib/http/route";
import { lifecycleContracts as c } from "@/lib/lifecycle/contracts";
import { listEscalations, raiseEscalation } from "@/lib/lifecycle/escalations";

export const GET = route(c.listEscalations, async ({ caller, query }) => listEscalations(caller, query));

export const POST = route(c.raiseEscalation, async ({ caller, body }) => raiseEscalation(caller, body));
