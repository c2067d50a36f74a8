// POST /api/v1/playbook-updates/[id]/review — accept or reject an idea (HQ admins and curators)
import { agentLogContracts as c } from "@/lib/agent-log/contracts";
import { reviewPlaybookUpdate } from "@/lib/agent-log/playbook-service";
import { route } from "@/lib/http/route";

export const POST = route(c.reviewPlaybookUpdate, async ({ caller, body, params }) => reviewPlaybookUpdate(caller, params.id, body));
