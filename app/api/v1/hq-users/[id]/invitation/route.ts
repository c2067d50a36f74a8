// POST /api/v1/hq-users/[id]/invitation — a new invitation link for a user who has not accepted one; the earlier link stops working (admin)
import { authContracts as c } from "@/lib/auth/contracts";
import { reinviteUser } from "@/lib/auth/service";
import { route } from "@/lib/http/route";

export const POST = route(c.reinviteUser, async ({ caller, params }) => reinviteUser(caller, params.id));
