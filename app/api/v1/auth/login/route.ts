// POST /api/v1/auth/login — sign in with email and password (sets the session cookie)
import { authContracts as c } from "@/lib/auth/contracts";
import { login } from "@/lib/auth/service";
import { callerAddress } from "@/lib/http/caller-address";
import { signedIn } from "@/lib/http/cookies";
import { route } from "@/lib/http/route";

export const POST = route(c.login, async ({ req, body }) => {
  const { user, cookie } = await login(body, callerAddress(req.headers), req.headers.get("user-agent") ?? "");
  return signedIn(req, { user }, cookie);
});
