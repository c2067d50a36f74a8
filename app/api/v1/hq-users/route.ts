// GET /api/v1/hq-users — list HQ users (admin)
// POST /api/v1/hq-users — invite an HQ user; the one-time invite token is returned once (admin)
import { authContracts as c } from "@/lib/auth/contracts";
import { inviteUser, listUsers } from "@/lib/auth/service";
import { route } from "@/lib/http/route";

export const GET = route(c.listUsers, async ({ caller }) => listUsers(caller));

export const POST = route(c.inviteUser, async ({ caller, body }) => inviteUser(caller, body));
