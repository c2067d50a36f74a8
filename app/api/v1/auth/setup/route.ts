// POST /api/v1/auth/setup — create the first HQ admin (only while no HQ user exists) and sign in
import { setupBody } from "@/lib/auth/schemas";
import { setupFirstAdmin } from "@/lib/auth/service";
import { route } from "@/lib/http/route";
import { signedIn } from "@/lib/http/cookies";

export const POST = route({ permission: null, body: setupBody }, async ({ req, body }) => {
  const { user, cookie } = await setupFirstAdmin(body, req.headers.get("user-agent") ?? "");
  return signedIn(req, { user }, cookie, 201);
});
