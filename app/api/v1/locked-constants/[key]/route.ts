// PUT /api/v1/locked-constants/[key] — create or change a locked constant (HQ admin only)
// DELETE /api/v1/locked-constants/[key] — remove a locked constant (HQ admin only)
import { route } from "@/lib/http/route";
import { putConstantBody } from "@/lib/locked-constants/schemas";
import { deleteLockedConstant, putLockedConstant } from "@/lib/locked-constants/service";

export const PUT = route({ permission: "constants.write", body: putConstantBody }, async ({ caller, body, params }) =>
  putLockedConstant(caller, params.key, body),
);

export const DELETE = route({ permission: "constants.write" }, async ({ caller, params }) =>
  deleteLockedConstant(caller, params.key),
);
