// POST /api/v1/auth/setup — create the first HQ admin (only while no HQ user exists) and sign in
import { authContracts as c } from "@/lib/auth/contracts";
import { setupFirstAdmin } from "@/lib/auth/service";
import { signedIn } from "@/lib/http/cookies";
import { route } from "@/lib/http/route";

export const POST = route(c.setup, async ({ req, body }) => {
  const { user, cookie } = await setupFirstAdmin(body, req.headers.get("user-agent") ?? "");
  return signedIn(req, { user }, cookie, 201);
});
