// POST /api/v1/auth/logout — end the current session
import { authContracts as c } from "@/lib/auth/contracts";
import { endSession, SESSION_COOKIE } from "@/lib/auth/session";
import { signedOut } from "@/lib/http/cookies";
import { route } from "@/lib/http/route";

export const POST = route(c.logout, async ({ req }) => {
  await endSession(req.cookies.get(SESSION_COOKIE)?.value);
  return signedOut();
});
