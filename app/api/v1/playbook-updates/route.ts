// GET /api/v1/playbook-updates?status=&area= — script improvement ideas
// POST /api/v1/playbook-updates — propose one (agents; locked constants refused)
import { agentLogContracts as c } from "@/lib/agent-log/contracts";
import { createPlaybookUpdate, listPlaybookUpdates } from "@/lib/agent-log/playbook-service";
import { route } from "@/lib/http/route";

export const GET = route(c.listPlaybookUpdates, async ({ caller, query }) => listPlaybookUpdates(caller, query));

export const POST = route(c.createPlaybookUpdate, async ({ caller, body }) => createPlaybookUpdate(caller, body));
