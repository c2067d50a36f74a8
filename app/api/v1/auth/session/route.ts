// GET /api/v1/auth/session — who is signed in, and whether HQ still needs its first admin
import { authContracts as c } from "@/lib/auth/contracts";
import { needsSetup } from "@/lib/auth/service";
import { getSessionUser } from "@/lib/auth/session";
import { route } from "@/lib/http/route";

export const GET = route(c.session, async ({ req }) => ({
  needsSetup: await needsSetup(),
  user: await getSessionUser(req.cookies),
}));
