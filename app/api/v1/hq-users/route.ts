// GET /api/v1/hq-users — list HQ users (admin)
// POST /api/v1/hq-users — invite an HQ user; the one-time invite token is returned once (admin)
import { inviteUserBody } from "@/lib/auth/schemas";
import { inviteUser, listUsers } from "@/lib/auth/service";
import { json, route } from "@/lib/http/route";

export const GET = route({ permission: "users.manage" }, async ({ caller }) => listUsers(caller));

export const POST = route({ permission: "users.manage", body: inviteUserBody }, async ({ caller, body }) =>
  json(await inviteUser(caller, body), 201),
);
