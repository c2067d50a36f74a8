// POST /api/v1/auth/accept-invite — an invited HQ user sets a password and signs in
import { authContracts as c } from "@/lib/auth/contracts";
import { acceptInvite } from "@/lib/auth/service";
import { signedIn } from "@/lib/http/cookies";
import { route } from "@/lib/http/route";

export const POST = route(c.acceptInvite, async ({ req, body }) => {
  const { user, cookie } = await acceptInvite(body, req.headers.get("user-agent") ?? "");
  return signedIn(req, { user }, cookie);
});
