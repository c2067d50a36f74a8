// POST /api/v1/playbook-updates/[id]/review — accept or reject an idea (HQ admins and curators)
import { reviewPlaybookUpdate } from "@/lib/agent-log/playbook-service";
import { reviewPlaybookUpdateBody } from "@/lib/agent-log/schemas";
import { route } from "@/lib/http/route";

export const POST = route({ permission: "playbook.review", body: reviewPlaybookUpdateBody }, async ({ caller, body, params }) =>
  reviewPlaybookUpdate(caller, params.id, body),
);
