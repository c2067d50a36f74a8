// PUT /api/v1/locked-constants/[key] — create or change a locked constant (HQ admin only)
// DELETE /api/v1/locked-constants/[key] — remove a locked constant (HQ admin only)
import { route } from "@/lib/http/route";
import { lockedConstantContracts as c } from "@/lib/locked-constants/contracts";
import { deleteLockedConstant, putLockedConstant } from "@/lib/locked-constants/service";

export const PUT = route(c.put, async ({ caller, body, params }) => putLockedConstant(caller, params.key, body));

export const DELETE = route(c.remove, async ({ caller, params }) => deleteLockedConstant(caller, params.key));
