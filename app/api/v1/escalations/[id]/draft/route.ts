// POST /api/v1/escalations/[id]/draft — the knowledge entry resolving without a knowledge body would publish, personal data left out (changes nothing)
import { route } from "@/lib/http/route";
import { lifecycleContracts as c } from "@/lib/lifecycle/contracts";
import { draftEscalationEntry } from "@/lib/lifecycle/escalations";

export const POST = route(c.draftEscalationEntry, async ({ caller, body, params }) => draftEscalationEntry(caller, params.id, body));
