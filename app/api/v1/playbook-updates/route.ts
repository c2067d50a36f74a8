// GET /api/v1/playbook-updates?status=&area= — script improvement ideas
// POST /api/v1/playbook-updates — propose one (agents; locked constants refused)
import { createPlaybookUpdate, listPlaybookUpdates } from "@/lib/agent-log/playbook-service";
import { createPlaybookUpdateBody, listPlaybookUpdatesQuery } from "@/lib/agent-log/schemas";
import { json, route } from "@/lib/http/route";

export const GET = route({ permission: "playbook.read", query: listPlaybookUpdatesQuery }, async ({ caller, query }) =>
  listPlaybookUpdates(caller, query),
);

export const POST = route({ permission: "playbook.propose", body: createPlaybookUpdateBody }, async ({ caller, body }) =>
  json(await createPlaybookUpdate(caller, body), 201),
);
