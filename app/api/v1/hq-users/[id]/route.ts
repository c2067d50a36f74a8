// PATCH /api/v1/hq-users/[id] — change an HQ user's role or name, disable or re-enable (admin)
import { updateUserBody } from "@/lib/auth/schemas";
import { updateUser } from "@/lib/auth/service";
import { route } from "@/lib/http/route";

export const PATCH = route({ permission: "users.manage", body: updateUserBody }, async ({ caller, body, params }) =>
  updateUser(caller, params.id, body),
);
