// PATCH /api/v1/hq-users/[id] — change an HQ user's role or name, disable or re-enable (admin)
import { authContracts as c } from "@/lib/auth/contracts";
import { updateUser } from "@/lib/auth/service";
import { route } from "@/lib/http/route";

export const PATCH = route(c.updateUser, async ({ caller, body, params }) => updateUser(caller, params.id, body));
